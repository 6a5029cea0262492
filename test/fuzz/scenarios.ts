/**
 * Stateful scenarios for the wire fuzzer: sequences of commands on one collection of the `scen`
 * database (its own per scenario) with oracles that a single request cannot check. Update operators
 * on dotted and positional paths with `arrayFilters`, update pipelines, `findAndModify`, batches of
 * inserts and updates with ordered and unordered errors, transactions, `$merge`/`$out`, change
 * streams resumed from their tokens, and index builds racing writes on a second connection. Each
 * checks: a document whose update failed is unchanged (never half-updated), a write a batch did not
 * get to is not applied, a transaction's writes are seen only once it commits, `$out` that fails
 * leaves its target as it was, a resumed change stream goes on from its token, and no unique index
 * holds two documents with one key.
 */
import { BSON } from 'bson';
import { filter, stage } from './grammar.js';
import { Random, hostileScalar, hostileValue, makeDoc } from './hostile-values.js';
import type { RawConnection } from './raw-connection.js';

/** The database scenarios use; the other fuzz modes never name it. */
export const SCENARIO_DB = 'scen';

type Doc = Record<string, unknown>;

/** What a scenario runs with: two client connections and where to report a broken oracle. */
export interface ScenarioContext {
  r: Random;
  a: RawConnection;
  b: RawConnection;
  coll: string;
  record(kind: string, detail: string): void;
  /** Checks every reply as the single-request cases are checked (errmsgs free of JavaScript errors). */
  inspect(command: string, reply: Doc): void;
  /** Every command sent, for the report. */
  log: string[];
}

const describe = (value: unknown): string => {
  try {
    return BSON.EJSON.stringify(value, { relaxed: true });
  } catch {
    return String(value);
  }
};

/** Sends `command` on `conn` (with `$db`); the reply document, or `undefined` when there was none. */
export async function run(ctx: ScenarioContext, conn: RawConnection, command: Doc): Promise<Doc | undefined> {
  const doc = makeDoc([...Object.entries(command), ['$db', command.$db ?? SCENARIO_DB]]);
  ctx.log.push(describe(doc).slice(0, 400));
  const outcome = await conn.command(doc, 30_000);
  if (outcome.kind !== 'reply') {
    ctx.record('scenario: no reply', `${Object.keys(command)[0]}: ${outcome.kind}`);
    return undefined;
  }
  if (typeof outcome.doc === 'string') {
    ctx.record('scenario: bad reply', `${Object.keys(command)[0]}: ${outcome.doc}`);
    return undefined;
  }
  ctx.inspect(Object.keys(command)[0] ?? '', outcome.doc);
  return outcome.doc;
}

/** The documents of the scenario's collection (or `coll`), sorted by `_id`, as canonical EJSON. */
export async function snapshot(ctx: ScenarioContext, coll = ctx.coll): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const reply = await run(ctx, ctx.b, { find: coll, filter: {}, batchSize: 100_000 });
  const batch = ((reply?.cursor as Doc | undefined)?.firstBatch as Doc[] | undefined) ?? [];
  for (const doc of batch) found.set(BSON.EJSON.stringify(doc._id), BSON.EJSON.stringify(doc));
  return found;
}

/** A seed document: scalars, nested documents and arrays of documents for positional paths. */
export function seedDoc(r: Random, id: number): Doc {
  const doc: Doc = { _id: id };
  if (r.chance(0.8)) doc.k = r.int(4);
  doc.n = r.pick([r.int(10), 1.5, -2, 'str', null, BSON.Long.fromNumber(r.int(5))]);
  doc.s = r.pick(['x', 'hello', '', 'É😀']);
  doc.arr = Array.from({ length: r.int(4) }, (_, i) => ({ id: i, v: r.pick([i, 'v', null, [i]]) }));
  doc.nums = Array.from({ length: r.int(5) }, () => r.int(6));
  doc.nested = { x: { y: r.int(3) }, list: [r.int(3)] };
  return doc;
}

const UPDATE_PATHS = [
  'k',
  'n',
  's',
  'nums',
  'nums.0',
  'nums.$',
  'nums.$[]',
  'nums.$[e]',
  'arr.$.v',
  'arr.$[].v',
  'arr.$[e].v',
  'arr.$[e]',
  'arr.$[f].v',
  'arr.1.v',
  'arr.5.v',
  'nested.x.y',
  'nested.x',
  'nested.list.$[]',
  'new.deep.path',
  'arr.$[].id',
  '_id',
];

/** A value an update operator takes: usually a plausible one, sometimes hostile. */
function argument(r: Random, op: string): unknown {
  if (r.chance(0.15)) return hostileValue(r, 1);
  switch (op) {
    case '$inc':
    case '$mul':
      return r.pick([1, -1, 2.5, BSON.Long.fromNumber(3), 'x', BSON.Decimal128.fromString('1.1')]);
    case '$push':
    case '$addToSet':
      return r.chance(0.6)
        ? makeDoc(
            [
              ['$each', r.pick([[1, 2], [{ id: 9, v: 1 }], [], 'x'])],
              ['$slice', r.pick([-2, 0, 3, 1.5, 'x'])],
              ['$sort', r.pick([1, -1, { v: 1 }, { id: -1 }, 0])],
              ['$position', r.pick([0, -1, 2, 100, 'x'])],
            ].filter(() => r.chance(0.6)) as [string, unknown][],
          )
        : r.pick([7, { id: 7, v: 7 }, [1]]);
    case '$pull':
      return r.pick([{ v: { $gt: 0 } }, 2, { id: 1 }, { $in: [1, 2] }, filter(r, 0)]);
    case '$pullAll':
      return r.pick([[1, 2], 'x', []]);
    case '$pop':
      return r.pick([1, -1, 0, 'x']);
    case '$rename':
      return r.pick(['renamed', 'k', 'nested.z', 'arr.$.x', '', 'n']);
    case '$unset':
      return '';
    case '$bit':
      return makeDoc([[r.pick(['and', 'or', 'xor', 'nope']), r.pick([1, 5, BSON.Long.fromNumber(6), 1.5])]]);
    case '$currentDate':
      return r.pick([true, { $type: 'date' }, { $type: 'timestamp' }, { $type: 'nope' }]);
    case '$min':
    case '$max':
      return r.pick([0, 100, 'a', null, new Date(0)]);
    default:
      return r.chance(0.5) ? hostileScalar(r) : r.pick([1, 'v', { z: 1 }, [1, 2], null]);
  }
}

const OPERATORS = [
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$rename',
  '$min',
  '$max',
  '$currentDate',
  '$addToSet',
  '$pop',
  '$pull',
  '$pullAll',
  '$push',
  '$bit',
  '$setOnInsert',
];

/** An update: operators on dotted and positional paths (often two, so one can fail), or a pipeline. */
export function scenarioUpdate(r: Random): unknown {
  if (r.chance(0.2)) {
    return Array.from({ length: 1 + r.int(2) }, () =>
      r.chance(0.7)
        ? {
            [r.pick(['$set', '$addFields', '$unset', '$replaceWith', '$project'])]: r.pick<unknown>([
              { k: { $add: ['$k', 1] } },
              { arr: { $concatArrays: ['$arr', [1]] } },
              'n',
              ['n', 's'],
              { $mergeObjects: ['$$ROOT', { z: 1 }] },
              { n: { $divide: [1, '$k'] } },
              { 'a.b': 1 },
              { nested: { x: '$$REMOVE' } },
            ]),
          }
        : stage(r, 1),
    );
  }
  return makeDoc(
    Array.from({ length: 1 + r.int(3) }, () => {
      const op = r.pick(OPERATORS);
      const fields = Array.from({ length: 1 + r.int(2) }, (): [string, unknown] => [
        r.pick(UPDATE_PATHS),
        argument(r, op),
      ]);
      return [op, makeDoc(fields)];
    }),
  );
}

/** `arrayFilters` for the identifiers `e` and `f` of the paths above, sometimes wrong. */
export function arrayFilters(r: Random): unknown[] {
  return r.pick<unknown[]>([
    [{ e: { $gte: 2 } }],
    [{ 'e.v': { $ne: null } }, { 'f.id': 0 }],
    [{ 'e.id': { $in: [0, 2] } }],
    [{ e: 1 }, { e: 2 }],
    [{ 'e.v': 1, 'f.v': 1 }],
    [{}],
    [{ E: 1 }],
    [hostileValue(r, 1)],
  ]);
}

/** A query on `_id` that sometimes also matches into an array, so that `$` has a position. */
const byId = (r: Random, id: number): Doc =>
  r.pick<Doc>([{ _id: id }, { _id: id, 'arr.id': r.int(3) }, { _id: id, nums: r.int(6) }, { _id: id, k: 0 }]);

/** Seeds the collection with `count` documents and returns them. */
export async function seed(ctx: ScenarioContext, count: number): Promise<Doc[]> {
  const docs = Array.from({ length: count }, (_, i) => seedDoc(ctx.r, i));
  await run(ctx, ctx.b, { insert: ctx.coll, documents: docs });
  return docs;
}

/** Reports a document changed although the write on it failed or was never run. */
function expectUnchanged(
  ctx: ScenarioContext,
  before: Map<string, string>,
  after: Map<string, string>,
  id: unknown,
  why: string,
): void {
  const key = BSON.EJSON.stringify(id);
  if (before.get(key) !== after.get(key))
    ctx.record(
      'half-written document',
      `${why}: ${before.get(key) ?? 'none'} became ${after.get(key) ?? 'none'}`,
    );
}

/** Updates (`update` or `findAndModify`) on one `_id` each, ordered or not: failed or skipped ones change nothing. */
async function updates(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  await seed(ctx, 4);
  const before = await snapshot(ctx);
  if (r.chance(0.3)) {
    const id = r.int(5);
    const upsert = r.chance(0.3);
    const command = makeDoc(
      [
        ['findAndModify', ctx.coll],
        ['query', byId(r, id)],
        r.chance(0.15) ? ['remove', true] : ['update', scenarioUpdate(r)],
        ['upsert', upsert],
        ['new', r.chance(0.5)],
        ['arrayFilters', arrayFilters(r)],
        ['fields', r.pick([{}, { k: 1 }, { arr: { $slice: 1 } }, { 'arr.$': 1 }])],
        ['sort', r.pick([{}, { k: 1 }])],
      ].filter(([key]) => key !== 'arrayFilters' || r.chance(0.6)) as [string, unknown][],
    );
    const reply = await run(ctx, ctx.a, command);
    // The reply's projection is computed before the write, so every failure leaves the document as it was.
    if (reply !== undefined && reply.ok !== 1) {
      expectUnchanged(ctx, before, await snapshot(ctx), id, `failed findAndModify ${describe(command)}`);
    }
    return;
  }
  const ordered = r.chance(0.5);
  const statements = Array.from({ length: 1 + r.int(4) }, (_, i) =>
    makeDoc(
      [
        ['q', byId(r, i)],
        ['u', scenarioUpdate(r)],
        ['upsert', r.chance(0.2)],
        ['arrayFilters', arrayFilters(r)],
      ].filter(([key]) => key !== 'arrayFilters' || r.chance(0.6)) as [string, unknown][],
    ),
  );
  const reply = await run(ctx, ctx.a, { update: ctx.coll, updates: statements, ordered });
  if (reply === undefined) return;
  const after = await snapshot(ctx);
  const errors = (reply.writeErrors as Doc[] | undefined) ?? [];
  const firstError = errors.length === 0 ? Infinity : Math.min(...errors.map((e) => e.index as number));
  statements.forEach((statement, i) => {
    const skipped = reply.ok !== 1 || errors.some((e) => e.index === i) || (ordered && i > firstError);
    if (skipped)
      expectUnchanged(
        ctx,
        before,
        after,
        i,
        `update statement ${i} (ordered ${ordered}) not applied: ${describe(statement)} → ${describe(reply)}`,
      );
  });
  if (ordered && errors.length > 1)
    ctx.record('ordered batch', `more than one write error: ${describe(errors)}`);
}

/** Inserts with duplicate `_id`s, ordered or not: what `n` counts is stored, nothing after an ordered error. */
async function inserts(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  await seed(ctx, 2);
  const ordered = r.chance(0.5);
  const docs = Array.from({ length: 1 + r.int(6) }, () => {
    const doc = seedDoc(r, 10 + r.int(4));
    if (r.chance(0.1)) doc._id = r.pick<unknown>([0, [1], { $x: 1 }, null]);
    if (r.chance(0.05)) doc['bad.key'] = 1;
    return doc;
  });
  const reply = await run(ctx, ctx.a, { insert: ctx.coll, documents: docs, ordered });
  if (reply === undefined || reply.ok !== 1) return;
  const errors = (reply.writeErrors as Doc[] | undefined) ?? [];
  const firstError = errors.length === 0 ? docs.length : Math.min(...errors.map((e) => e.index as number));
  const applied = docs.filter((_, i) => !errors.some((e) => e.index === i) && (!ordered || i < firstError));
  if (reply.n !== applied.length)
    ctx.record('insert count', `n ${String(reply.n)} for ${applied.length} applied (ordered ${ordered})`);
  const after = await snapshot(ctx);
  const inserted = after.size - 2;
  if (inserted !== applied.length && docs.every((d) => typeof d._id === 'number'))
    ctx.record(
      'insert count',
      `${inserted} stored for ${applied.length} applied (ordered ${ordered}): ${describe(reply)}`,
    );
}

const txnFields = (lsid: Doc, txnNumber: number, extra: [string, unknown][] = []): [string, unknown][] => [
  ['lsid', lsid],
  ['txnNumber', BSON.Long.fromNumber(txnNumber)],
  ['autocommit', false],
  ...extra,
];

/** A transaction: its writes are invisible to others until it commits, and gone when it aborts. */
async function transaction(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  await seed(ctx, 3);
  const before = await snapshot(ctx);
  const lsid = { id: new BSON.UUID() };
  const txn = 1 + r.int(3);
  const ids = [100 + r.int(3), 100 + r.int(3)];
  const start = await run(
    ctx,
    ctx.a,
    makeDoc([
      ['insert', ctx.coll],
      ['documents', [{ _id: ids[0], t: 1 }]],
      ...txnFields(lsid, txn, [['startTransaction', true]]),
    ]),
  );
  if (r.chance(0.5))
    await run(
      ctx,
      ctx.a,
      makeDoc([
        ['update', ctx.coll],
        ['updates', [{ q: byId(r, r.int(3)), u: scenarioUpdate(r), upsert: r.chance(0.3) }]],
        ...txnFields(lsid, r.chance(0.9) ? txn : txn + 1),
      ]),
    );
  if (r.chance(0.5))
    await run(
      ctx,
      ctx.a,
      makeDoc([['insert', ctx.coll], ['documents', [{ _id: ids[1], t: 2 }]], ...txnFields(lsid, txn)]),
    );
  // Another client writes the same documents outside the transaction.
  const outside = r.chance(0.3);
  if (outside)
    await run(ctx, ctx.b, { update: ctx.coll, updates: [{ q: { _id: r.int(3) }, u: { $inc: { k: 1 } } }] });
  const seen = await run(ctx, ctx.b, { find: ctx.coll, filter: { t: { $exists: true } } });
  const visible = ((seen?.cursor as Doc | undefined)?.firstBatch as Doc[] | undefined) ?? [];
  if (start?.ok === 1 && visible.length > 0)
    ctx.record('transaction isolation', `uncommitted insert seen outside: ${describe(visible)}`);
  const commit = r.chance(0.6);
  const end = await run(
    ctx,
    ctx.a,
    makeDoc([
      [commit ? 'commitTransaction' : 'abortTransaction', 1],
      ...txnFields(lsid, r.chance(0.9) ? txn : txn - 1),
      ['$db', 'admin'],
    ]),
  );
  if (r.chance(0.3))
    await run(ctx, ctx.a, makeDoc([['abortTransaction', 1], ...txnFields(lsid, txn), ['$db', 'admin']]));
  const stored = await run(ctx, ctx.b, { find: ctx.coll, filter: { _id: ids[0] } });
  const found = ((stored?.cursor as Doc | undefined)?.firstBatch as Doc[] | undefined) ?? [];
  const committed = commit && end?.ok === 1 && start?.ok === 1;
  if (committed && found.length === 0) ctx.record('transaction', 'committed insert missing');
  if (!commit && end?.ok === 1 && found.length > 0) ctx.record('transaction', 'aborted insert stored');
  if (!committed && !outside) {
    const after = await snapshot(ctx);
    if (describe([...after]) !== describe([...before]))
      ctx.record('transaction', `a transaction that did not commit changed the collection: ${describe(end)}`);
  }
}

/** `$out` or `$merge` into a target with a unique index: a failed `$out` leaves the target as it was. */
async function outAndMerge(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  await seed(ctx, 5);
  const target = `${ctx.coll}_t`;
  await run(ctx, ctx.b, {
    insert: target,
    documents: [
      { _id: 0, k: 9 },
      { _id: 50, k: 1 },
    ],
  });
  if (r.chance(0.6))
    await run(ctx, ctx.b, { createIndexes: target, indexes: [{ key: { k: 1 }, name: 'k_1', unique: true }] });
  const before = await snapshot(ctx, target);
  const out = r.chance(0.4);
  const last = out
    ? { $out: r.pick<unknown>([target, { db: SCENARIO_DB, coll: target }, { db: SCENARIO_DB, coll: '' }]) }
    : {
        $merge: makeDoc([
          ['into', target],
          ['on', r.pick(['_id', 'k', ['k'], ['_id', 'k']])],
          [
            'whenMatched',
            r.pick<unknown>(['merge', 'replace', 'keepExisting', 'fail', [{ $set: { m: '$$new.k' } }]]),
          ],
          ['whenNotMatched', r.pick(['insert', 'discard', 'fail'])],
        ]),
      };
  const middle = r.chance(0.5)
    ? [r.pick<Doc>([{ $project: { k: 1 } }, { $set: { k: 1 } }, { $unset: 'k' }, stage(r, 1)])]
    : [];
  const reply = await run(ctx, ctx.a, { aggregate: ctx.coll, pipeline: [...middle, last], cursor: {} });
  if (out && reply !== undefined && reply.ok !== 1) {
    const after = await snapshot(ctx, target);
    if (describe([...after]) !== describe([...before]))
      ctx.record('half-written $out', `failed $out changed its target: ${describe(reply)}`);
  }
  await checkUnique(ctx, target);
}

/** Writes seen by a change stream, resumed from a token: it goes on with the event after the token. */
async function changeStream(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  await seed(ctx, 2);
  const options = makeDoc(
    [
      ['fullDocument', r.pick(['default', 'updateLookup', 'whenAvailable', 'required', 'nope'])],
      ['fullDocumentBeforeChange', r.pick(['off', 'whenAvailable', 'required'])],
      ['showExpandedEvents', r.chance(0.3)],
    ].filter(() => r.chance(0.5)) as [string, unknown][],
  );
  const opened = await run(ctx, ctx.a, {
    aggregate: ctx.coll,
    pipeline: [{ $changeStream: options }],
    cursor: {},
  });
  const cursorId = (opened?.cursor as Doc | undefined)?.id;
  if (opened?.ok !== 1 || cursorId === undefined) return;
  const writes = 2 + r.int(3);
  for (let i = 0; i < writes; i++) {
    const write = r.pick<Doc>([
      { insert: ctx.coll, documents: [{ _id: 20 + i, k: i }] },
      { update: ctx.coll, updates: [{ q: { _id: r.int(2) }, u: scenarioUpdate(r) }] },
      { delete: ctx.coll, deletes: [{ q: { _id: 20 + r.int(i + 1) }, limit: 1 }] },
      { findAndModify: ctx.coll, query: { _id: r.int(2) }, update: { $inc: { k: 1 } } },
    ]);
    await run(ctx, ctx.b, write);
  }
  const events: Doc[] = [];
  for (let i = 0; i < 3 && events.length < writes; i++) {
    const more = await run(ctx, ctx.a, { getMore: cursorId, collection: ctx.coll, maxTimeMS: 200 });
    events.push(...(((more?.cursor as Doc | undefined)?.nextBatch as Doc[] | undefined) ?? []));
    if (more?.ok !== 1) break;
  }
  await run(ctx, ctx.a, { killCursors: ctx.coll, cursors: [cursorId] });
  if (events.length < 2) return;
  const token = events[0]!._id;
  const from = r.pick(['resumeAfter', 'startAfter']);
  const mangled = r.chance(0.25);
  const resumeToken = mangled
    ? r.pick<unknown>([{ _data: 'zz' }, {}, 'x', { _data: '82' + '0'.repeat(60) }, hostileValue(r, 1)])
    : token;
  const resumed = await run(ctx, ctx.a, {
    aggregate: ctx.coll,
    pipeline: [{ $changeStream: { ...options, [from]: resumeToken } }],
    cursor: {},
  });
  const resumedId = (resumed?.cursor as Doc | undefined)?.id;
  if (resumed?.ok !== 1 || resumedId === undefined) return;
  let next = ((resumed.cursor as Doc).firstBatch as Doc[])[0];
  if (next === undefined) {
    const more = await run(ctx, ctx.a, { getMore: resumedId, collection: ctx.coll, maxTimeMS: 200 });
    next = (((more?.cursor as Doc | undefined)?.nextBatch as Doc[] | undefined) ?? [])[0];
  }
  await run(ctx, ctx.a, { killCursors: ctx.coll, cursors: [resumedId] });
  if (!mangled && describe(next?._id) !== describe(events[1]!._id))
    ctx.record(
      'change stream resume',
      `${from} the first event gave ${describe(next)}, not ${describe(events[1])}`,
    );
}

/** An index build on one connection while the other writes: no unique index ends up violated. */
async function indexRace(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  await seed(ctx, 3 + r.int(4));
  const unique = r.chance(0.7);
  const spec = makeDoc(
    [
      ['key', r.pick<Doc>([{ k: 1 }, { k: 1, s: -1 }, { 'nested.x.y': 1 }, { k: 'hashed' }, { nums: 1 }])],
      ['name', `i${r.int(3)}`],
      ['unique', unique],
      [
        'partialFilterExpression',
        r.pick<unknown>([{ n: { $gt: 0 } }, { k: { $exists: true } }, { k: { $type: 'number' } }]),
      ],
      ['expireAfterSeconds', r.pick([100_000_000, -1, 'x'])],
      ['hidden', r.chance(0.5)],
      ['sparse', r.chance(0.5)],
    ].filter(([key]) => key === 'key' || key === 'name' || key === 'unique' || r.chance(0.3)) as [
      string,
      unknown,
    ][],
  );
  const build = run(ctx, ctx.a, { createIndexes: ctx.coll, indexes: [spec] });
  for (let i = 0; i < 3 + r.int(4); i++) {
    await run(
      ctx,
      ctx.b,
      r.pick<Doc>([
        { insert: ctx.coll, documents: [{ _id: 30 + i, k: r.int(4), s: 'x', n: 1 }] },
        { update: ctx.coll, updates: [{ q: { _id: r.int(6) }, u: { $set: { k: r.int(4) } } }] },
        { update: ctx.coll, updates: [{ q: {}, u: { $set: { k: 2 } }, multi: true }] },
        { delete: ctx.coll, deletes: [{ q: { k: r.int(4) }, limit: 1 }] },
      ]),
    );
  }
  const built = await build;
  await checkUnique(ctx, ctx.coll);
  // A build that failed leaves no index behind.
  if (built !== undefined && built.ok !== 1) {
    const listed = await run(ctx, ctx.b, { listIndexes: ctx.coll });
    const names = (((listed?.cursor as Doc | undefined)?.firstBatch as Doc[] | undefined) ?? []).map(
      (i) => i.name,
    );
    if (names.includes(spec.name))
      ctx.record('failed index build', `${describe(spec)} left its index: ${describe(built)}`);
  }
}

/** Reports two documents with one key under a unique index of `coll` (scalar keys; a partial filter is applied). */
async function checkUnique(ctx: ScenarioContext, coll: string): Promise<void> {
  const listed = await run(ctx, ctx.b, { listIndexes: coll });
  const indexes = ((listed?.cursor as Doc | undefined)?.firstBatch as Doc[] | undefined) ?? [];
  for (const index of indexes) {
    if (index.unique !== true) continue;
    const fields = Object.keys(index.key as Doc);
    if (Object.values(index.key as Doc).some((v) => typeof v === 'string')) continue;
    const match: Doc = {
      $and: [
        (index.partialFilterExpression as Doc | undefined) ?? {},
        ...fields.map((f) => ({ [f]: { $not: { $type: 'array' } } })),
      ],
    };
    if (index.sparse === true)
      (match.$and as Doc[]).push({ $or: fields.map((f) => ({ [f]: { $exists: true } })) });
    const grouped = await run(ctx, ctx.b, {
      aggregate: coll,
      pipeline: [
        { $match: match },
        {
          $group: {
            _id: Object.fromEntries(fields.map((f, i) => [`f${i}`, { $ifNull: [`$${f}`, null] }])),
            count: { $sum: 1 },
          },
        },
        { $match: { count: { $gt: 1 } } },
      ],
      cursor: {},
    });
    const duplicates = ((grouped?.cursor as Doc | undefined)?.firstBatch as Doc[] | undefined) ?? [];
    if (duplicates.length > 0)
      ctx.record('unique index violated', `${coll} ${describe(index)}: ${describe(duplicates)}`);
  }
}

/**
 * One update applied to two equal documents, by `update` and by `findAndModify`: both fail with one
 * code or both give the same document (the two commands share MongoDB's update driver).
 */
async function sameUpdate(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  const base = seedDoc(r, 0);
  await run(ctx, ctx.b, { insert: ctx.coll, documents: [base, { ...base, _id: 1 }] });
  let update = scenarioUpdate(r);
  // The time of $currentDate differs between the two.
  if (!Array.isArray(update))
    update = makeDoc(Object.entries(update as Doc).filter(([op]) => op !== '$currentDate'));
  const filters = r.chance(0.5) ? arrayFilters(r) : undefined;
  const match = r.pick<Doc>([
    {},
    { 'arr.id': r.int(3) },
    { nums: r.int(6) },
    { 'arr.v': r.pick([0, 'v', null]) },
  ]);
  const byUpdate = await run(ctx, ctx.a, {
    update: ctx.coll,
    updates: [
      makeDoc([
        ['q', { _id: 0, ...match }],
        ['u', update],
        ...(filters ? [['arrayFilters', filters] as [string, unknown]] : []),
      ]),
    ],
  });
  const byFindAndModify = await run(
    ctx,
    ctx.a,
    makeDoc([
      ['findAndModify', ctx.coll],
      ['query', { _id: 1, ...match }],
      ['update', update],
      ...(filters ? [['arrayFilters', filters] as [string, unknown]] : []),
    ]),
  );
  if (byUpdate === undefined || byFindAndModify === undefined) return;
  const updateError =
    (byUpdate.writeErrors as Doc[] | undefined)?.[0] ?? (byUpdate.ok === 1 ? undefined : byUpdate);
  const famError = byFindAndModify.ok === 1 ? undefined : byFindAndModify;
  if (describe(updateError?.code) !== describe(famError?.code)) {
    ctx.record(
      'update and findAndModify differ',
      `${describe(update)}: update ${describe(updateError?.errmsg ?? 'ok')}, findAndModify ${describe(famError?.errmsg ?? 'ok')}`,
    );
    return;
  }
  const after = await snapshot(ctx);
  const strip = (doc: string | undefined): string => (doc ?? 'none').replace(/^\{"_id":\d+,?/, '{');
  if (strip(after.get('0')) !== strip(after.get('1')))
    ctx.record(
      'update and findAndModify differ',
      `${describe(update)}: ${after.get('0')} vs ${after.get('1')}`,
    );
}

/** The scenarios, by name. */
export const SCENARIOS: Record<string, (ctx: ScenarioContext) => Promise<void>> = {
  updates,
  inserts,
  transaction,
  outAndMerge,
  changeStream,
  indexRace,
  sameUpdate,
};
