/**
 * `$jsonSchema` matching (MongoDB's JSON Schema draft 4 dialect with `bsonType`), for collection validators
 * and queries: bsonType/type, encrypt, required, properties, additionalProperties, patternProperties,
 * minProperties/maxProperties, dependencies, enum, minimum/maximum (+exclusive), multipleOf,
 * minLength/maxLength, pattern, items, additionalItems, minItems/maxItems, uniqueItems,
 * allOf/anyOf/oneOf/not. A keyword for one BSON type leaves values of other types alone, as the
 * restrictions `json_schema_parser.cpp` builds (`makeRestriction`) do; the schema is checked beforehand
 * (json-schema-*.ts), so this only matches.
 */
import { numberKind } from './arithmetic.js';
import { isMultipleOf } from './multiple-of.js';
import { bsonTag, bsonTypeName, hasType, isPlainObject, keyOf, TYPE_NUMBERS } from './values.js';
import { LinearRegExp } from './linear-regex.js';
import type { Doc } from './values.js';

const JSON_TYPES: Record<string, string[]> = {
  object: ['object'],
  array: ['array'],
  string: ['string'],
  boolean: ['bool'],
  number: ['int', 'double', 'long', 'decimal'],
  null: ['null'],
};

/** True when `value` has one of the `bsonType` / JSON `type` names given (each check skipped when undefined). */
export function typeMatches(value: unknown, bsonType: unknown, jsonType: unknown): boolean {
  if (bsonType !== undefined) {
    const types = Array.isArray(bsonType) ? bsonType : [bsonType];
    if (!types.some((t) => typeof t === 'string' && hasType(value, t))) return false;
  }
  if (jsonType !== undefined) {
    const types = Array.isArray(jsonType) ? jsonType : [jsonType];
    const name = bsonTypeName(value);
    if (!types.some((t) => typeof t === 'string' && (JSON_TYPES[t] ?? []).includes(name))) return false;
  }
  return true;
}

/**
 * The numeric value of any BSON number: a JS number, `Int32`, `Double`, `Long` or `Decimal128` (a decimal
 * NaN gives undefined). Undefined for every other value: an array such as `[3]` is not a number (JSON
 * Schema's number keywords leave it alone, as MongoDB's makeRestriction does). Throws nothing.
 */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (numberKind(value) === undefined) return undefined;
  const n = Number((value as { toString(): string }).toString());
  return Number.isNaN(n) ? undefined : n;
}

/**
 * The values a property name reaches in `doc`. MongoDB builds each `required`, `properties` and
 * `dependencies` name into a match expression's path (`ExistsMatchExpression(name)`, `_parse(expCtx,
 * name, …)` in json_schema_parser.cpp), so `a.b` is the path through `a` to `b`, not a field named
 * `a.b`; as any path, it reaches into the documents of an array on its way (and a numeric part also
 * indexes it), while a value it ends at is taken whole. A name without a dot reaches `doc[name]` only.
 * Own fields only (a stored document never holds `undefined`).
 */
export function propertyValues(doc: Doc, name: string): unknown[] {
  const parts = name.split('.');
  const out: unknown[] = [];
  const walk = (value: unknown, i: number): void => {
    if (i === parts.length) {
      out.push(value);
      return;
    }
    const part = parts[i]!;
    if (isPlainObject(value)) {
      if (Object.hasOwn(value, part) && value[part] !== undefined) walk(value[part], i + 1);
    } else if (Array.isArray(value)) {
      if (/^\d+$/.test(part) && Number(part) < value.length) walk(value[Number(part)], i + 1);
      for (const element of value) if (isPlainObject(element)) walk(element, i);
    }
  };
  walk(doc, 0);
  return out;
}

/** True when the property `name` (a path when dotted, see `propertyValues`) exists in `doc`. */
export function hasField(doc: Doc, name: string): boolean {
  return propertyValues(doc, name).length > 0;
}

/**
 * True when property `name` of `doc` satisfies `schema` or is missing. A dotted name reaching several
 * values passes when each keyword holds for one of them (see `matchesValues`).
 */
export function propertyMatches(doc: Doc, name: string, schema: Doc): boolean {
  const values = propertyValues(doc, name);
  return values.length === 0 || matchesValues(schema, values);
}

/** BSON type codes of the `$type` aliases, plus the two `TYPE_NUMBERS` leaves out. */
const TYPE_CODES: Record<string, number[]> = {
  ...Object.fromEntries(Object.entries(TYPE_NUMBERS).map(([code, alias]) => [alias, [Number(code)]])),
  dbPointer: [12],
  javascriptWithScope: [15],
  number: [1, 16, 18, 19],
};

/**
 * The bytes of a BinData of subtype 6 (`BinDataType::Encrypt`), or undefined for any other value: what
 * `encrypt` requires (`InternalSchemaBinDataSubTypeExpression`, plus the BinData type `_parse` implies).
 */
export function encryptedBytes(value: unknown): Uint8Array | undefined {
  if (bsonTag(value) !== 'Binary') return undefined;
  const bin = value as { sub_type: number; buffer: Uint8Array; position: number };
  return bin.sub_type === 6 ? bin.buffer.subarray(0, bin.position) : undefined;
}

/**
 * True when encrypted `bytes` hold a value of one of the types `encrypt.bsonType` names
 * (`InternalSchemaBinDataEncryptedTypeExpression`): an 18-byte `FleBlobHeader` at least (subtype byte,
 * 16-byte key id, original BSON type byte) of the deterministic (1) or random (2) kind.
 */
export function encryptedTypeMatches(bytes: Uint8Array, bsonType: unknown): boolean {
  if (bytes.length < 18 || (bytes[0] !== 1 && bytes[0] !== 2)) return false;
  // The type byte is an int8: minKey is stored as 0xff.
  const original = (bytes[17]! << 24) >> 24;
  const aliases = Array.isArray(bsonType) ? (bsonType as unknown[]) : [bsonType];
  return aliases.some((a) => typeof a === 'string' && (TYPE_CODES[a] ?? []).includes(original));
}

/** `encrypt`: a BinData of subtype 6, of the original type `encrypt.bsonType` names when given. */
function matchesEncrypt(encrypt: unknown, value: unknown): boolean {
  const bytes = encryptedBytes(value);
  if (bytes === undefined) return false;
  const bsonType = isPlainObject(encrypt) ? encrypt['bsonType'] : undefined;
  return bsonType === undefined || encryptedTypeMatches(bytes, bsonType);
}

/** The type a restriction keyword applies to (`makeRestriction`'s restrictionType in json_schema_parser.cpp). */
type Kind = 'number' | 'string' | 'array' | 'object';

const KINDS: Record<Kind, (value: unknown) => boolean> = {
  number: (value) => numberKind(value) !== undefined,
  string: (value) => typeof value === 'string',
  array: Array.isArray,
  object: isPlainObject,
};

const STATED_KINDS: Record<string, Kind> = {
  number: 'number',
  int: 'number',
  long: 'number',
  double: 'number',
  decimal: 'number',
  string: 'string',
  array: 'array',
  object: 'object',
};

/**
 * The one type `bsonType` or `type` states, as a restriction's kind (`'other'` for any other type), or
 * undefined when they state none or several (MatcherTypeSet::isSingleType).
 */
function statedKind(schema: Doc): Kind | 'other' | undefined {
  const stated = schema['bsonType'] ?? schema['type'];
  const names = Array.isArray(stated) ? (stated as unknown[]) : stated === undefined ? [] : [stated];
  if (names.length !== 1 || typeof names[0] !== 'string') return undefined;
  return STATED_KINDS[names[0]] ?? 'other';
}

/**
 * One restriction keyword at a path that reaches `values`: MongoDB builds each into its own match
 * expression on the path, true when any value satisfies `test`, and lets values of other types pass
 * unless none is of its kind (makeRestriction: `(OR (NOT (INTERNAL_SCHEMA_TYPE kind)) restriction)`); a
 * schema stating one type keeps the restriction alone, or drops it when it is for another type. The
 * comparison, regex, length and `multipleOf` expressions look inside an array they end at (`traverse`);
 * the array and object keywords take the value whole.
 */
function restricted(
  schema: Doc,
  values: unknown[],
  kind: Kind,
  test: (value: never) => boolean,
  traverse = false,
): boolean {
  const isKind = KINDS[kind];
  const candidates = traverse
    ? values.flatMap((v) => (Array.isArray(v) ? [v, ...(v as unknown[])] : [v]))
    : values;
  const holds = candidates.some((v) => isKind(v) && test(v as never));
  const stated = statedKind(schema);
  if (stated !== undefined) return stated !== kind || holds;
  return holds || !values.some(isKind);
}

/** `patternProperties` and `additionalProperties` on one object (InternalSchemaAllowedPropertiesMatchExpression). */
function allowedProperties(schema: Doc, value: Doc): boolean {
  const props = isPlainObject(schema['properties']) ? schema['properties'] : {};
  const patterns = isPlainObject(schema['patternProperties']) ? schema['patternProperties'] : {};
  for (const [p, s] of Object.entries(patterns)) {
    const re = LinearRegExp.compile(p, 'u');
    for (const [k, v] of Object.entries(value))
      if (re.matches(k) && isPlainObject(s) && !matchesSchema(s, v)) return false;
  }
  const additional = schema['additionalProperties'];
  if (additional === undefined || additional === true) return true;
  const extra = Object.keys(value).filter(
    (k) =>
      !Object.hasOwn(props, k) && !Object.keys(patterns).some((p) => LinearRegExp.compile(p, 'u').matches(k)),
  );
  if (additional === false) return extra.length === 0;
  return !isPlainObject(additional) || extra.every((k) => matchesSchema(additional, value[k]));
}

/**
 * The number, string and array keywords at a path reaching `values`, each its own restriction. `items`
 * is one expression per listed position (`InternalSchemaMatchArrayIndexMatchExpression`, an index past
 * the end passes) or, for a single schema, one for every element; `additionalItems` applies to the
 * elements after a list (`false` allows none) and is ignored beside a single schema.
 */
function scalarAndArrayKeywords(schema: Doc, values: unknown[]): boolean {
  const min = asNumber(schema['minimum']);
  const max = asNumber(schema['maximum']);
  // A value with no numeric reading (a decimal NaN) passes the number keywords.
  const number = (check: (n: number, value: unknown) => boolean) => (value: unknown) => {
    const n = asNumber(value);
    return n === undefined || check(n, value);
  };
  const checks: [boolean, Kind, (value: never) => boolean, boolean?][] = [
    [
      min !== undefined,
      'number',
      number((n) => (schema['exclusiveMinimum'] === true ? n > min! : n >= min!)),
      true,
    ],
    [
      max !== undefined,
      'number',
      number((n) => (schema['exclusiveMaximum'] === true ? n < max! : n <= max!)),
      true,
    ],
    [
      schema['multipleOf'] !== undefined,
      'number',
      number((_n, v) => isMultipleOf(v, schema['multipleOf'])),
      true,
    ],
    [
      schema['minLength'] !== undefined,
      'string',
      (v: string) => [...v].length >= asNumber(schema['minLength'])!,
      true,
    ],
    [
      schema['maxLength'] !== undefined,
      'string',
      (v: string) => [...v].length <= asNumber(schema['maxLength'])!,
      true,
    ],
    [
      typeof schema['pattern'] === 'string',
      'string',
      (v: string) => LinearRegExp.compile(schema['pattern'] as string, 'u').matches(v),
      true,
    ],
    [schema['minItems'] !== undefined, 'array', (v: unknown[]) => v.length >= asNumber(schema['minItems'])!],
    [schema['maxItems'] !== undefined, 'array', (v: unknown[]) => v.length <= asNumber(schema['maxItems'])!],
    [
      schema['uniqueItems'] === true,
      'array',
      (v: unknown[]) => new Set(v.map((x) => keyOf(x))).size === v.length,
    ],
  ];
  const items = schema['items'];
  if (isPlainObject(items))
    checks.push([true, 'array', (v: unknown[]) => v.every((x) => matchesSchema(items, x))]);
  else if (Array.isArray(items)) {
    items.forEach((s: unknown, i) =>
      checks.push([
        true,
        'array',
        (v: unknown[]) => i >= v.length || (isPlainObject(s) && matchesSchema(s, v[i])),
      ]),
    );
    const additional = schema['additionalItems'];
    const rest = (v: unknown[]) => v.slice(items.length);
    if (additional === false) checks.push([true, 'array', (v: unknown[]) => rest(v).length === 0]);
    else if (isPlainObject(additional))
      checks.push([true, 'array', (v: unknown[]) => rest(v).every((x) => matchesSchema(additional, x))]);
  }
  return checks.every(
    ([given, kind, test, traverse]) => !given || restricted(schema, values, kind, test, traverse),
  );
}

/**
 * The object keywords at a path reaching `values`, each its own restriction on the documents among them
 * (`InternalSchemaObjectMatchExpression` for `required`, `properties`, `patternProperties` with
 * `additionalProperties`, `minProperties`, `maxProperties`: every field counts, `_id` too at the top
 * level), then `dependencies`: when a document has the named field, a list names fields that some
 * document must have too, and a schema must match the values (`InternalSchemaCondMatchExpression` with
 * an always-true else branch).
 */
function objectKeywords(schema: Doc, values: unknown[]): boolean {
  const checks: ((value: Doc) => boolean)[] = [];
  const required = schema['required'];
  if (Array.isArray(required))
    checks.push((o) => required.every((k: unknown) => typeof k === 'string' && hasField(o, k)));
  const props = schema['properties'];
  if (isPlainObject(props))
    checks.push((o) =>
      Object.entries(props).every(([k, s]) => !isPlainObject(s) || propertyMatches(o, k, s)),
    );
  if (schema['patternProperties'] !== undefined || schema['additionalProperties'] !== undefined)
    checks.push((o) => allowedProperties(schema, o));
  const min = asNumber(schema['minProperties']);
  const max = asNumber(schema['maxProperties']);
  if (min !== undefined) checks.push((o) => Object.keys(o).length >= min);
  if (max !== undefined) checks.push((o) => Object.keys(o).length <= max);
  if (!checks.every((test) => restricted(schema, values, 'object', test))) return false;
  const has = (name: string) => values.some((v) => isPlainObject(v) && hasField(v, name));
  const dependencies = isPlainObject(schema['dependencies']) ? schema['dependencies'] : {};
  for (const [name, dependency] of Object.entries(dependencies)) {
    if (!has(name)) continue;
    if (Array.isArray(dependency) && !dependency.every((k: unknown) => typeof k === 'string' && has(k)))
      return false;
    if (isPlainObject(dependency) && !matchesValues(dependency, values)) return false;
  }
  return true;
}

/** True when `value` satisfies `schema`. */
export function matchesSchema(schema: Doc, value: unknown): boolean {
  return matchesValues(schema, [value]);
}

/**
 * True when the values a path reaches (`propertyValues`) satisfy `schema`, as MongoDB's expressions for
 * it do: each keyword is an expression of its own on the path, which one of the values satisfies
 * (json_schema_parser.cpp's `_parse` gives every keyword the property's path), not a sub-schema one value
 * must pass whole. One value is the common case, where the two readings agree.
 */
export function matchesValues(schema: Doc, values: unknown[]): boolean {
  const any = (test: (value: unknown) => boolean): boolean => values.some(test);
  if (
    (schema['bsonType'] !== undefined || schema['type'] !== undefined) &&
    !any((v) => typeMatches(v, schema['bsonType'], schema['type']))
  )
    return false;
  // A top-level `encrypt` implies a BinData root, which never matches (`_parse`'s always-false root).
  if (schema['encrypt'] !== undefined && !any((v) => matchesEncrypt(schema['encrypt'], v))) return false;
  const options = schema['enum'];
  if (Array.isArray(options) && !any((v) => options.some((e: unknown) => keyOf(e) === keyOf(v))))
    return false;
  if (!scalarAndArrayKeywords(schema, values) || !objectKeywords(schema, values)) return false;
  const sub = (key: string): Doc[] =>
    Array.isArray(schema[key]) ? (schema[key] as unknown[]).filter(isPlainObject) : [];
  if (sub('allOf').some((s) => !matchesValues(s, values))) return false;
  if (Array.isArray(schema['anyOf']) && !sub('anyOf').some((s) => matchesValues(s, values))) return false;
  if (Array.isArray(schema['oneOf']) && sub('oneOf').filter((s) => matchesValues(s, values)).length !== 1)
    return false;
  if (isPlainObject(schema['not']) && matchesValues(schema['not'], values)) return false;
  return true;
}
