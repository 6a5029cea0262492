/**
 * Scenarios for the wire fuzzer that check the query planner against a collection scan: the same
 * documents are kept in two collections, one with random indexes (single field, compound, multikey,
 * hashed, wildcard, sparse, partial, with a collation) and one with none, and the same writes go to
 * both. Oracles: every `find` (with and without a hint, sorted on an indexed field), `count`,
 * `distinct` and `aggregate` answers the same on both, every write reports the same counts and
 * leaves the same documents. An index changes how documents are found, never which.
 */
import { BSON } from 'bson';
import { type Random, makeDoc } from './hostile-values.js';
import { arrayFilters, run, scenarioUpdate, seedDoc, snapshot, type ScenarioContext } from './scenarios.js';

type Doc = Record<string, unknown>;

const ejson = (value: unknown): string => BSON.EJSON.stringify(value, { relaxed: false });

/** An index the planner may use; `hintable` when a hint on it cannot change the answer. */
interface IndexChoice {
  key: Doc;
  options?: Doc;
  hintable: boolean;
}

const INDEXES: IndexChoice[] = [
  { key: { k: 1 }, hintable: true },
  { key: { n: 1 }, hintable: true },
  { key: { s: 1 }, hintable: true },
  { key: { 'arr.id': 1 }, hintable: true },
  { key: { 'arr.v': -1 }, hintable: true },
  { key: { nums: 1 }, hintable: true },
  { key: { 'nested.x.y': 1 }, hintable: true },
  { key: { k: 1, n: -1 }, hintable: true },
  { key: { n: 1, s: 1 }, hintable: true },
  { key: { 'arr.id': 1, 'arr.v': 1 }, hintable: true },
  { key: { nums: -1, k: 1 }, hintable: true },
  { key: { s: 1 }, options: { collation: { locale: 'en', strength: 2 } }, hintable: false },
  { key: { k: 1 }, options: { partialFilterExpression: { k: { $gt: 1 } } }, hintable: false },
  { key: { n: 1 }, options: { sparse: true }, hintable: false },
  { key: { s: 'hashed' }, hintable: false },
  { key: { '$**': 1 }, hintable: false },
  { key: { 'nested.$**': 1 }, hintable: false },
];

const FIELDS = ['k', 'n', 's', 'arr.id', 'arr.v', 'arr', 'nums', 'nested.x.y', 'nested.x', 'zz', '_id'];

/** A value to compare with: of every type the seeded fields hold, and some they never hold. */
function value(r: Random): unknown {
  return r.pick<unknown>([
    0,
    1,
    2,
    3,
    1.5,
    -2,
    NaN,
    BSON.Long.fromNumber(2),
    BSON.Decimal128.fromString('2'),
    BSON.Decimal128.fromString('1.50'),
    new BSON.Double(-0),
    'x',
    'X',
    '',
    'v',
    'str',
    'hello',
    'É😀',
    'é😀',
    null,
    true,
    [],
    [1],
    [0, 1],
    { id: 0, v: 0 },
    { y: 1 },
    new Date(0),
    new BSON.MinKey(),
    new BSON.MaxKey(),
  ]);
}

/**
 * A seed document (scenarios.ts) whose fields sometimes hold a value of another type or shape instead:
 * numbers of every BSON type, strings that differ in case or accents, nested arrays, missing fields.
 */
export function indexDoc(r: Random, id: number): Doc {
  const doc = seedDoc(r, id);
  for (const field of ['k', 'n', 's', 'nums', 'nested']) {
    if (r.chance(0.25)) doc[field] = r.chance(0.8) ? value(r) : [[value(r)], value(r)];
    else if (r.chance(0.05)) delete doc[field];
  }
  return doc;
}

/** A predicate on one field, of the forms an index can answer and some it cannot. */
function predicate(r: Random): unknown {
  switch (r.int(16)) {
    case 0:
    case 1:
      return value(r);
    case 2:
      return { [r.pick(['$gt', '$gte', '$lt', '$lte'])]: value(r) };
    case 3:
      return { $gt: value(r), $lt: value(r) };
    case 4:
      return { $in: Array.from({ length: r.int(4) }, () => (r.chance(0.1) ? /^h/ : value(r))) };
    case 5:
      return { $nin: Array.from({ length: 1 + r.int(3) }, () => value(r)) };
    case 6:
      return { $ne: value(r) };
    case 7:
      return { $exists: r.chance(0.5) };
    case 8:
      return { $type: r.pick(['number', 'string', 'array', 'null', 'object', 'long', 'double', 'int']) };
    case 9:
      return { $elemMatch: r.chance(0.5) ? { $gte: value(r), $lt: value(r) } : { id: predicate(r) } };
    case 10:
      return { $regex: r.pick(['^h', 'l+', '^$', '^É', '^x']), ...(r.chance(0.3) ? { $options: 'i' } : {}) };
    case 11:
      return { $all: Array.from({ length: 1 + r.int(2) }, () => value(r)) };
    case 12:
      return { $size: r.int(4) };
    case 13:
      return { $not: { [r.pick(['$gt', '$lt', '$eq'])]: value(r) } };
    case 14:
      return { $mod: [2, r.int(2)] };
    default:
      return { $eq: value(r) };
  }
}

/** A filter of one to three predicates, sometimes under `$or`, `$and` or `$nor`. */
export function indexFilter(r: Random): Doc {
  const one = (): Doc => ({ [r.pick(FIELDS)]: predicate(r) });
  switch (r.int(6)) {
    case 0:
      return { $or: Array.from({ length: 1 + r.int(3) }, one) };
    case 1:
      return { $and: [one(), one()] };
    case 2:
      return { $nor: [one()] };
    case 3:
      return {};
    default:
      return makeDoc(Array.from({ length: 1 + r.int(2) }, () => [r.pick(FIELDS), predicate(r)]));
  }
}

const codeOf = (reply: Doc | undefined): unknown =>
  (reply?.writeErrors as Doc[] | undefined)?.[0]?.code ?? (reply?.ok === 1 ? undefined : reply?.code);

/** What a reply says, without what may differ between the two collections (namespaces, cursor ids). */
function answerOf(reply: Doc | undefined, sorted: boolean): string {
  if (reply === undefined) return 'no reply';
  if (reply.ok !== 1) return `error ${String(reply.code)}`;
  const cursor = reply.cursor as Doc | undefined;
  if (cursor) {
    const docs = ((cursor.firstBatch as Doc[]) ?? []).map(ejson);
    return (sorted ? docs : docs.sort()).join('\n');
  }
  if (Array.isArray(reply.values)) return (reply.values as unknown[]).map(ejson).sort().join('\n');
  return ejson({ n: reply.n, nModified: reply.nModified, writeErrors: reply.writeErrors !== undefined });
}

/**
 * The same documents in an indexed collection and a plain one; random reads compared between them
 * after random writes applied to both.
 */
async function indexedReads(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  const plain = `${ctx.coll}_plain`;
  const chosen = INDEXES.filter(() => r.chance(0.3));
  // Both collections sometimes have a default collation, which an index without one then takes.
  if (r.chance(0.25)) {
    const collation = { locale: 'en', strength: r.pick([1, 2, 3]) };
    for (const coll of [ctx.coll, plain]) await run(ctx, ctx.a, { create: coll, collation });
  }
  const created = await run(ctx, ctx.a, {
    createIndexes: ctx.coll,
    indexes: chosen.map((index, i) => ({ key: index.key, name: `i${i}`, ...index.options })),
  });
  if (chosen.length > 0 && created?.ok !== 1) return;
  const docs = Array.from({ length: 5 + r.int(30) }, (_, i) => indexDoc(r, i));
  // Documents one by one: a document an index refuses (a hashed array) is refused by both.
  for (const doc of docs) {
    const indexed = await run(ctx, ctx.a, { insert: ctx.coll, documents: [doc] });
    if (codeOf(indexed) === undefined) await run(ctx, ctx.a, { insert: plain, documents: [doc] });
  }
  let nextId = docs.length;
  for (let step = 0; step < 8; step++) {
    const write = await writeBoth(ctx, plain, () => nextId++);
    if (!write) return;
    for (let read = 0; read < 4; read++) await readBoth(ctx, plain, chosen);
  }
  const [a, b] = [await snapshot(ctx), await snapshot(ctx, plain)];
  if (ejson([...a]) !== ejson([...b]))
    ctx.record('index changes documents', `${ejson([...a].slice(0, 3))} vs ${ejson([...b].slice(0, 3))}`);
}

/** One random read on both collections; a difference is a finding. */
async function readBoth(ctx: ScenarioContext, plain: string, chosen: IndexChoice[]): Promise<void> {
  const { r } = ctx;
  const filter = indexFilter(r);
  const sortField = r.pick(['k', 'n', 's', 'nums', 'arr.id', 'nested.x.y']);
  const key = r.pick(FIELDS);
  const hintable = chosen.flatMap((index, i) => (index.hintable ? [`i${i}`] : []));
  const hint = hintable.length > 0 && r.chance(0.5) ? r.pick(hintable) : undefined;
  const kind = r.pick(['count', 'distinct', 'aggregate', 'find', 'find sorted']);
  // A query's own collation decides which collated indexes it may use.
  const collation = r.chance(0.2) ? { collation: { locale: 'en', strength: r.pick([1, 2]) } } : {};
  const command = (coll: string, indexed: boolean): Doc => ({ ...body(coll, indexed), ...collation });
  const body = (coll: string, indexed: boolean): Doc => {
    switch (kind) {
      case 'count':
        return { count: coll, query: filter };
      case 'distinct':
        return { distinct: coll, key, query: filter };
      case 'aggregate':
        return {
          aggregate: coll,
          pipeline: [{ $match: filter }, { $sort: { [sortField]: -1, _id: 1 } }, { $project: { _id: 1 } }],
          cursor: { batchSize: 100_000 },
        };
      default:
        return {
          find: coll,
          filter,
          sort: kind === 'find sorted' ? { [sortField]: 1, _id: 1 } : { _id: 1 },
          batchSize: 100_000,
          ...(indexed && hint ? { hint } : {}),
        };
    }
  };
  const onIndexed = command(ctx.coll, true);
  const sorted = kind !== 'distinct';
  const a = answerOf(await run(ctx, ctx.a, onIndexed), sorted);
  const b = answerOf(await run(ctx, ctx.b, command(plain, false)), sorted);
  if (a !== b)
    ctx.record('index changes an answer', `${ejson(onIndexed)}:\n${a.slice(0, 600)}\nvs\n${b.slice(0, 600)}`);
}

/**
 * One random write on both collections: the same counts, or the indexed one refused with a code an
 * index causes (then the two may have diverged, and the scenario ends). False when it ended.
 */
async function writeBoth(ctx: ScenarioContext, plain: string, newId: () => number): Promise<boolean> {
  const { r } = ctx;
  const kind = r.int(4);
  let body: Doc;
  if (kind === 0) {
    body = { insert: '', documents: [indexDoc(r, newId())] };
  } else if (kind === 1) {
    body = { delete: '', deletes: [{ q: indexFilter(r), limit: 0 }] };
  } else {
    let update = scenarioUpdate(r);
    // $currentDate writes the time, which differs between the two writes.
    if (!Array.isArray(update))
      update = makeDoc(Object.entries(update as Doc).filter(([op]) => op !== '$currentDate'));
    body = {
      update: '',
      updates: [
        makeDoc([
          ['q', indexFilter(r)],
          ['u', update],
          ['multi', !Array.isArray(update) || r.chance(0.5)],
          ...(r.chance(0.4) ? [['arrayFilters', arrayFilters(r)] as [string, unknown]] : []),
        ]),
      ],
    };
  }
  const name = Object.keys(body)[0]!;
  const indexed = await run(ctx, ctx.a, makeDoc([[name, ctx.coll], ...Object.entries(body).slice(1)]));
  const onPlain = await run(ctx, ctx.a, makeDoc([[name, plain], ...Object.entries(body).slice(1)]));
  const [ca, cb] = [codeOf(indexed), codeOf(onPlain)];
  // Refused by an index: a hashed field holding an array (16766), parallel arrays (171), a key too deep.
  if (ca !== undefined && cb === undefined && [16766, 171, 17280, 13548].includes(ca as number)) return false;
  // An update without multi changes the first match, which the two collections may find in another order.
  const single = name === 'update' && (body.updates as Doc[])[0]!.multi === false;
  if (!single && answerOf(indexed, true) !== answerOf(onPlain, true))
    ctx.record(
      'index changes a write',
      `${ejson(body)}:\n${answerOf(indexed, true)}\nvs\n${answerOf(onPlain, true)}`,
    );
  return !single;
}

/** The scenarios, by name. */
export const INDEX_SCENARIOS: Record<string, (ctx: ScenarioContext) => Promise<void>> = { indexedReads };
