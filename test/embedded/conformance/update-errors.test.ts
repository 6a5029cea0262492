/**
 * Bad `update` and `findAndModify` commands fail as MongoDB 7.0 fails them: same code, same message.
 * The answers come from MongoDB's own (recorded by FerretDB's integration suite against a real server:
 * integration/update_field_test.go, integration/findandmodify_test.go) or from MongoDB's server source
 * (src/mongo/db/update/*_node.cpp, src/mongo/db/commands/find_and_modify.cpp) where noted. An update is
 * parsed before any document is read, so its parse errors come back even when nothing matches.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';
import type { DriverUnderTest } from '../helpers.js';

type Doc = Record<string, any>;

/** FerretDB's shared documents the recorded answers were made against. */
const nested = { v: [{ foo: [{ bar: 'hello' }, { bar: 'world' }] }] };
const nestedText = '{v: [ { foo: [ { bar: "hello" }, { bar: "world" } ] } ]}';
const composite = { v: { foo: 42, '42': 'foo', array: [42, 'foo', null] } };

/** [case, stored document (its _id is the case's id), update, code, message] */
function updateCases(bson: DriverUnderTest['bson']): [string, Doc, Doc, number, string][] {
  const int64Max = bson.Long.fromString('9223372036854775807');
  return [
    // MongoDB 7.0's answers recorded in FerretDB's integration/update_field_test.go, TestUpdateFieldErrors.
    [
      '$rename through an array',
      nested,
      { $rename: { 'v.foo': 'foo' } },
      28,
      `cannot use the part (v of v.foo) to traverse the element (${nestedText})`,
    ],
    [
      '$rename of a path with an empty part',
      nested,
      { $rename: { 'v.': 'v' } },
      56,
      "The update path 'v.' contains an empty field name, which is not allowed.",
    ],
    [
      '$rename through an array with a negative index',
      nested,
      { $rename: { 'v.-1': 'f' } },
      28,
      `cannot use the part (v of v.-1) to traverse the element (${nestedText})`,
    ],
    [
      '$rename through a string',
      nested,
      { $rename: { 'v.0.foo.0.bar.z': 'f' } },
      28,
      'cannot use the part (bar of v.0.foo.0.bar.z) to traverse the element ({bar: "hello"})',
    ],
    [
      '$inc of a field under an array',
      nested,
      { $inc: { 'v.foo': 1 } },
      28,
      `Cannot create field 'foo' in element ${nestedText}`,
    ],
    [
      '$inc of a string deep in arrays names the field, not the path',
      nested,
      { $inc: { 'v.0.foo.0.bar': 1 } },
      14,
      'Cannot apply $inc to a value of non-numeric type. {_id: "$inc of a string deep in arrays names the field, not the path"} has the field \'bar\' of non-numeric type string',
    ],
    [
      '$inc overflowing an int32 field',
      { v: 42 },
      { $inc: { v: int64Max } },
      2,
      'Failed to apply $inc operations to current value ((NumberInt)42) for document {_id: "$inc overflowing an int32 field"}',
    ],
    [
      '$max of a field under an array',
      nested,
      { $max: { 'v.foo': 1 } },
      28,
      `Cannot create field 'foo' in element ${nestedText}`,
    ],
    [
      '$min of a field under an array',
      nested,
      { $min: { 'v.foo': 1 } },
      28,
      `Cannot create field 'foo' in element ${nestedText}`,
    ],
    [
      '$mul of a field under an array',
      nested,
      { $mul: { 'v.foo': 1 } },
      28,
      `Cannot create field 'foo' in element ${nestedText}`,
    ],
    [
      '$mul of a string deep in arrays',
      nested,
      { $mul: { 'v.0.foo.0.bar': 1 } },
      14,
      'Cannot apply $mul to a value of non-numeric type. {_id: "$mul of a string deep in arrays"} has the field \'bar\' of non-numeric type string',
    ],
    [
      '$mul overflowing an int32 field',
      { v: 42 },
      { $mul: { v: int64Max } },
      2,
      'Failed to apply $mul operations to current value ((NumberInt)42) for document {_id: "$mul overflowing an int32 field"}',
    ],
    [
      '$mul of a path with an empty part',
      nested,
      { $mul: { 'v.': 'v' } },
      56,
      "The update path 'v.' contains an empty field name, which is not allowed.",
    ],
    // MongoDB's answers recorded in FerretDB's integration/update_field_test.go (2023),
    // TestUpdateFieldCurrentDate, TestUpdateFieldInc, TestUpdateFieldSetOnInsert and
    // TestUpdateFieldPopArrayOperator; the messages are built by current_date_node.cpp,
    // update_leaf_node.cpp and pop_node.cpp.
    [
      '$currentDate of a number',
      { v: 42.13 },
      { $currentDate: { v: 1 } },
      2,
      "int is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).",
    ],
    [
      '$currentDate with an unknown option',
      { v: [42] },
      { $currentDate: { v: { array: { unexsistent: {} } } } },
      2,
      'Unrecognized $currentDate option: array',
    ],
    [
      '$inc of a field under an array in a document',
      composite,
      { $inc: { 'v.array.foo': 1 } },
      28,
      'Cannot create field \'foo\' in element {array: [ 42, "foo", null ]}',
    ],
    [
      '$setOnInsert of NaN',
      { v: 42.13 },
      { $setOnInsert: NaN },
      9,
      'Modifiers operate on fields but we found type double instead. For example: {$mod: {<field>: ...}} not {$setOnInsert: nan.0}',
    ],
    ['$pop of a string', { v: [42] }, { $pop: { v: 'foo' } }, 9, 'Expected a number in: v: "foo"'],
    ['$pop of 42', { v: [42] }, { $pop: { v: 42 } }, 9, '$pop expects 1 or -1, found: 42'],
    // MongoDB's source: UpdateObjectNode::parseAndMerge names the conflict by the shared part of the path
    // (update_object_node_test.cpp), and create-field errors name the element that blocks the path.
    [
      'a conflict names the shared part of the later path',
      { x: 1 },
      { $set: { 'x.y': 1, x: 2 } },
      40,
      "Updating the path 'x' would create a conflict at 'x'",
    ],
    // The same rule as the recorded `$inc` of 'v.array.foo' above, for $set.
    [
      '$set of a field under an array',
      { a: { b: [1] } },
      { $set: { 'a.b.c': 1 } },
      28,
      "Cannot create field 'c' in element {b: [ 1 ]}",
    ],
  ];
}

/** [case, update] whose parse error MongoDB answers even when nothing matches (code, message). */
const parseCases: [string, Doc, number, string][] = [
  [
    'an unknown operator',
    { $unknown: { v: 'val' } },
    9,
    'Unknown modifier: $unknown. Expected a valid update modifier or pipeline-style update specified as an array',
  ],
  [
    '$inc of a string',
    { $inc: { v: 'string' } },
    14,
    'Cannot increment with non-numeric argument: {v: "string"}',
  ],
  [
    '$set of an array',
    { $set: [] },
    9,
    'Modifiers operate on fields but we found type array instead. For example: {$mod: {<field>: ...}} not {$set: []}',
  ],
  ['an empty path', { $rename: { '': 'v' } }, 56, 'An empty update path is not valid.'],
  ['$pop of 2', { $pop: { v: 2 } }, 9, '$pop expects 1 or -1, found: 2'],
  // RenameNode::init (rename_node.cpp); update_arrayFilters.js renames 'a.$[i]'. The engine resolved
  // the array operator and answered for the element it named.
  [
    '$rename from $[]',
    { $rename: { 'v.$[]': 'w' } },
    2,
    'The source field for $rename may not be dynamic: v.$[]',
  ],
  ['$rename to $', { $rename: { w: 'v.$' } }, 2, 'The destination field for $rename may not be dynamic: v.$'],
  [
    'two operators on one path',
    { $set: { foo: 12 }, $inc: { foo: 1 } },
    40,
    "Updating the path 'foo' would create a conflict at 'foo'",
  ],
];

/** [case, findAndModify arguments, code, message] */
const findAndModifyCases: [string, Doc, number, string][] = [
  // MongoDB 7.0's answers recorded in FerretDB's integration/findandmodify_test.go, TestFindAndModifyErrors.
  [
    'upsert and remove',
    { upsert: true, remove: true },
    9,
    'Cannot specify both upsert=true and remove=true ',
  ],
  [
    'a sort of a string',
    { update: {}, sort: '123' },
    14,
    "BSON field 'findAndModify.sort' is the wrong type 'string', expected type 'object'",
  ],
  [
    'remove of a string',
    { query: {}, remove: '123' },
    14,
    "BSON field 'findAndModify.remove' is the wrong type 'string', expected types '[bool, long, int, decimal, double']",
  ],
  [
    'new of a string',
    { query: {}, new: '123' },
    14,
    "BSON field 'findAndModify.new' is the wrong type 'string', expected types '[bool, long, int, decimal, double']",
  ],
  [
    'upsert of a string',
    { query: {}, upsert: '123' },
    14,
    "BSON field 'findAndModify.upsert' is the wrong type 'string', expected types '[bool, long, int, decimal, double']",
  ],
  // An older recording of the same suite (and MongoDB's UpdateModification parser).
  [
    'an update of a string',
    { query: {}, update: '123' },
    9,
    'Update argument must be either an object or an array',
  ],
  // MongoDB's source: find_and_modify.cpp, validate().
  [
    'new and remove',
    { remove: true, new: true },
    9,
    "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document",
  ],
  [
    'arrayFilters and remove',
    { remove: true, arrayFilters: [] },
    9,
    'Cannot specify arrayFilters and remove=true',
  ],
  [
    'arrayFilters and a pipeline',
    { update: [{ $set: { a: 1 } }], arrayFilters: [{ 'x.a': 1 }] },
    9,
    'Cannot specify arrayFilters and a pipeline update',
  ],
];

describe.each(drivers)('update errors ($name)', (driver) => {
  const t = connect(driver, 'update_errors');

  it.each(updateCases(driver.bson))('update: %s', async (name, stored, update, code, message) => {
    const coll = t.db.collection<any>('stored');
    await coll.insertOne({ _id: name, ...stored });
    const error = await failure(() => coll.updateOne({ _id: name }, update));
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
    expect(await coll.findOne({ _id: name }, { projection: { _id: 0 } })).toEqual(stored);
  });

  it.each(parseCases)('update matching nothing: %s', async (_name, update, code, message) => {
    const error = await failure(() => t.db.collection<any>('empty').updateMany({}, update));
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
  });

  // Values of other BSON types as BSONElement::toString prints them (src/mongo/bson/bsonelement.cpp):
  // a regex `/p/o`, BinData `BinData(<subtype>, <HEX>)` or `UUID("…")`, JavaScript as its code,
  // code-with-scope `CodeWScope( code, scope)`, a symbol quoted. Found by the wire fuzzer (test/fuzz),
  // when they printed as "[object Object]".
  it('names arguments of other BSON types as MongoDB prints them', async () => {
    const { BSONRegExp, Binary, Code, UUID } = driver.bson;
    const printed: [unknown, string][] = [
      [new BSONRegExp('a+', 'i'), '/a+/i'],
      [new Binary(Buffer.from([1, 0xab]), 0), 'BinData(0, 01AB)'],
      [new UUID('0f8fad5b-d9cb-469f-a165-70867728950e'), 'UUID("0f8fad5b-d9cb-469f-a165-70867728950e")'],
      [new Code('this.a'), 'this.a'],
      [new Code('f(x)', { x: 1 }), 'CodeWScope( f(x), { x: 1 })'],
    ];
    for (const [value, text] of printed) {
      const error = await failure(() =>
        t.db.collection<any>('empty').updateMany({}, { $mul: { v: value } } as Doc),
      );
      expect(error['code']).toBe(14);
      expect(error['message']).toBe(`Cannot multiply with non-numeric argument: {v: ${text}}`);
    }
  });

  // UpdateArrayNode::apply (src/mongo/db/update/update_array_node.cpp) streams element.toString():
  // the element's own name and its value as BSONElement::toString prints them, as MongoDB's
  // stitch_support_test.cpp expects "Cannot apply array updates to non-array element a: 1". It printed
  // the whole path and JSON, a Long as {"low":0,"high":-2147483648,"unsigned":false}; found by the
  // wire fuzzer (test/fuzz, seed 51).
  it('names a non-array element under a positional path by its name and BSON value', async () => {
    const { Long } = driver.bson;
    const coll = t.db.collection<any>('non_array');
    const cases: [Doc, Doc, string][] = [
      [{ a: { b: 123 } }, { $set: { 'a.b.$[]': 1 } }, 'b: 123'],
      [
        { arr: { 0: Long.fromString('-9223372036854775808') } },
        { $set: { 'arr.$[]': 1 } },
        'arr: { 0: -9223372036854775808 }',
      ],
      [{ g: 'abc' }, { $inc: { 'g.$[].n': 1 } }, 'g: "abc"'],
      [{ a: [{ c: 1.5 }] }, { $set: { 'a.$[].c.$[]': 1 } }, 'c: 1.5'],
    ];
    for (const [stored, update, element] of cases) {
      await coll.deleteMany({});
      await coll.insertOne({ _id: 1, ...stored });
      const error = await failure(() => coll.updateOne({ _id: 1 }, update));
      expect(error['code']).toBe(2);
      expect(error['message']).toBe(`Cannot apply array updates to non-array element ${element}`);
      expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, ...stored });
    }
  });

  // A positional path of $set or $currentDate that does not resolve is an error, as for $inc: the
  // array must exist (UpdateArrayNode::apply above) and `$` needs a condition on the array in the
  // query (MongoDB's manual, "$ (update)": "The positional operator did not find the match needed from
  // the query"). They were acknowledged as no-ops, and `a.$[].$[]` on `[[1], 2]` set `a.1` to the new
  // value although `2` is no array; found by the wire fuzzer (test/fuzz, seed 51).
  it('refuses a positional $set or $currentDate path that does not resolve, changing nothing', async () => {
    const coll = t.db.collection<any>('positional_set');
    const cases: [Doc, Doc, number, string][] = [
      [
        { a: [[1], 2] },
        { $set: { 'a.$[].$[]': 0 } },
        2,
        'Cannot apply array updates to non-array element 1: 2',
      ],
      [
        { a: { b: 123 } },
        { $set: { 'a.b.$[]': 1 } },
        2,
        'Cannot apply array updates to non-array element b: 123',
      ],
      [
        { a: 5 },
        { $currentDate: { 'a.$[]': true } },
        2,
        'Cannot apply array updates to non-array element a: 5',
      ],
      [
        {},
        { $set: { 'x.$[]': 1 } },
        2,
        "The path 'x' must exist in the document in order to apply array updates.",
      ],
      [
        { a: [1] },
        { $set: { 'a.$': 1 } },
        2,
        'The positional operator did not find the match needed from the query.',
      ],
      [{ a: [1, 2] }, { $set: { 'a.$[].b': 1 } }, 28, "Cannot create field 'b' in element {0: 1}"],
    ];
    for (const [stored, update, code, message] of cases) {
      await coll.deleteMany({});
      await coll.insertOne({ _id: 1, ...stored });
      const error = await failure(() => coll.updateOne({ _id: 1 }, update));
      expect([error['code'], error['message']]).toEqual([code, message]);
      expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, ...stored });
    }
  });

  // update_driver.cpp streams the update BSONObj into the message (jstests/core/write/update/
  // update_arrayFilters.js expects "... was not used in the update { $set: { a.$[i]: 5.0 } }" for the
  // shell's double 5); it printed as JSON, a Long as {"low":6,"high":0,"unsigned":false}. Found by the
  // wire fuzzer (test/fuzz/scenarios.ts).
  it('names an unused array filter with the update printed as MongoDB prints it', async () => {
    const { Long, Double } = driver.bson;
    const coll = t.db.collection<any>('filters');
    await coll.insertOne({ _id: 1, a: [1, 2] });
    const error = await failure(() =>
      coll.updateOne(
        { _id: 1 },
        { $set: { 'a.$[i]': new Double(5) }, $inc: { n: Long.fromNumber(6) } },
        { arrayFilters: [{ i: 0 }, { j: 0 }] },
      ),
    );
    expect(error['code']).toBe(9);
    expect(error['message']).toBe(
      "The array filter for identifier 'j' was not used in the update { $set: { a.$[i]: 5.0 }, $inc: { n: 6 } }",
    );
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: [1, 2] });
  });

  // write_ops.idl types arrayFilters `array<object>`: the IDL parser refuses an element of another
  // type with TypeMismatch, naming it by its index (idl_parser.cpp's getElementPath). It was a
  // JavaScript TypeError ("Cannot convert undefined or null to object"); found by the wire fuzzer.
  it('refuses an array filter that is not a document, naming it', async () => {
    const coll = t.db.collection<any>('filters');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, a: [1, 2] });
    const update = { $set: { 'a.$[i]': 0 } };
    for (const [bad, type] of [
      [null, 'null'],
      [1, 'int'],
    ] as const) {
      const byUpdate = await failure(() =>
        t.db.command({
          update: 'filters',
          updates: [{ q: { _id: 1 }, u: update, arrayFilters: [{ i: 1 }, bad] }],
        }),
      );
      expect(byUpdate['code']).toBe(14);
      expect(byUpdate['message']).toBe(
        `BSON field 'update.updates.arrayFilters.1' is the wrong type '${type}', expected type 'object'`,
      );
      const byFindAndModify = await failure(() =>
        t.db.command({ findAndModify: 'filters', query: { _id: 1 }, update, arrayFilters: [bad] }),
      );
      expect(byFindAndModify['code']).toBe(14);
      expect(byFindAndModify['message']).toBe(
        `BSON field 'findAndModify.arrayFilters.0' is the wrong type '${type}', expected type 'object'`,
      );
    }
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: [1, 2] });
  });

  it.each(findAndModifyCases)('findAndModify: %s', async (_name, args, code, message) => {
    await t.db.collection<any>('fam').insertOne({ v: 'x' });
    const error = await failure(() => t.db.command({ findAndModify: 'fam', sort: { _id: 1 }, ...args }));
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
  });

  // FerretDB's integration/findandmodify_test.go, TestFindAndModifySimple: new, remove and upsert are
  // "safe bools", so a non-zero number is true (new: 42.0 returns the new document).
  it('findAndModify reads new, upsert and remove given as numbers', async () => {
    const coll = t.db.collection<any>('safebool');
    await coll.insertOne({ _id: 1, v: 42 });
    const updated = await t.db.command({
      findAndModify: 'safebool',
      query: { _id: 1 },
      update: { v: 43 },
      new: 42.0,
    });
    expect(updated['value']).toEqual({ _id: 1, v: 43 });
    const kept = await t.db.command({
      findAndModify: 'safebool',
      query: { _id: 1 },
      update: { v: 44 },
      new: 0,
    });
    expect(kept['value']).toEqual({ _id: 1, v: 43 });
    const upserted = await t.db.command({
      findAndModify: 'safebool',
      query: { _id: 2 },
      update: { $set: { v: 1 } },
      upsert: 1,
      new: 1,
    });
    expect(upserted['value']).toEqual({ _id: 2, v: 1 });
    const removed = await t.db.command({ findAndModify: 'safebool', query: { _id: 2 }, remove: 1 });
    expect(removed['value']).toEqual({ _id: 2, v: 1 });
    expect(await coll.countDocuments()).toBe(1);
  });
});
