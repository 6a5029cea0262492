/**
 * Scenarios for the wire fuzzer around a collection's life rather than its documents: cursors read in
 * random batches while the collection is dropped, renamed or written; `renameCollection` with and
 * without `dropTarget`; `collMod`; capped collections; views defined over views; and documents at
 * MongoDB's limits (16 MiB, 100 levels of nesting, long, `$`-prefixed and dotted field names) through
 * insert and update. Oracles: a cursor never gives one document twice nor, on a collection nothing
 * changed, misses one; a killed cursor is gone; a failed rename or `collMod` changes no data; a capped
 * collection keeps the newest documents within its `max`; a view refuses writes and cycles; an
 * acknowledged write reads back as it was sent, and a refused one stores nothing.
 */
import { BSON } from 'bson';
import { stage } from './grammar.js';
import { hostileScalar, hostileValue, makeDoc } from './hostile-values.js';
import { run, seed, snapshot, type ScenarioContext } from './scenarios.js';

type Doc = Record<string, unknown>;

const ejson = (value: unknown): string => BSON.EJSON.stringify(value, { relaxed: false });
const codeOf = (reply: Doc | undefined): unknown =>
  (reply?.writeErrors as Doc[] | undefined)?.[0]?.code ?? (reply?.ok === 1 ? undefined : reply?.code);
const cursorOf = (reply: Doc | undefined): Doc | undefined => reply?.cursor as Doc | undefined;

/**
 * A cursor read by `getMore` in random batches (sometimes with `maxTimeMS`), while the other connection
 * sometimes drops the collection, renames it, inserts into it or kills the cursor.
 */
async function cursors(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  const docs = await seed(ctx, 5 + r.int(40));
  const open = await run(
    ctx,
    ctx.a,
    r.chance(0.7)
      ? { find: ctx.coll, filter: {}, batchSize: r.pick([0, 1, 2, 7]), sort: r.pick([{}, { _id: 1 }]) }
      : { aggregate: ctx.coll, pipeline: [{ $match: {} }], cursor: { batchSize: r.pick([0, 1, 3]) } },
  );
  const first = cursorOf(open);
  if (first === undefined) return;
  const seen: unknown[] = [...((first.firstBatch as Doc[] | undefined) ?? []).map((d) => ejson(d._id))];
  let id = first.id;
  let disturbed = false;
  let killed = false;
  for (let turn = 0; turn < 60 && !(id instanceof BSON.Long && id.isZero()) && id !== 0; turn++) {
    if (r.chance(0.15)) {
      const what = r.pick(['drop', 'rename', 'insert', 'kill', 'killOther', 'dropDatabase']);
      if (what === 'drop') await run(ctx, ctx.b, { drop: ctx.coll });
      if (what === 'rename')
        await run(ctx, ctx.b, {
          renameCollection: `scen.${ctx.coll}`,
          to: `scen.${ctx.coll}_t`,
          dropTarget: r.chance(0.5),
          $db: 'admin',
        });
      if (what === 'insert') await run(ctx, ctx.b, { insert: ctx.coll, documents: [{ _id: 1000 + turn }] });
      if (what === 'kill' || what === 'killOther') {
        const reply = await run(ctx, what === 'kill' ? ctx.a : ctx.b, {
          killCursors: ctx.coll,
          cursors: [id],
        });
        killed = ((reply?.cursorsKilled as unknown[] | undefined) ?? []).length > 0;
      }
      disturbed = what !== 'kill' && what !== 'killOther';
    }
    const command = makeDoc([
      ['getMore', id],
      ['collection', ctx.coll],
      ...(r.chance(0.7) ? [['batchSize', r.pick([1, 2, 5, 0, -1, 2.5])] as [string, unknown]] : []),
      ...(r.chance(0.3) ? [['maxTimeMS', r.pick([1, 1000, 0, -1, 'x'])] as [string, unknown]] : []),
    ]);
    const reply = await run(ctx, ctx.a, command);
    const next = cursorOf(reply);
    if (killed && reply?.ok === 1) ctx.record('killed cursor answered', ejson(reply).slice(0, 200));
    if (next === undefined) break;
    for (const d of (next.nextBatch as Doc[] | undefined) ?? []) seen.push(ejson(d._id));
    id = next.id;
  }
  if (new Set(seen).size !== seen.length) ctx.record('cursor gave a document twice', seen.join(' '));
  const finished = id === 0 || (id instanceof BSON.Long && id.isZero());
  if (finished && !disturbed && seen.length !== docs.length)
    ctx.record('cursor lost documents', `${seen.length} of ${docs.length}`);
}

/** `renameCollection` onto an existing or missing target, with or without `dropTarget`, and `collMod`. */
async function renameAndCollMod(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  const target = `${ctx.coll}_t`;
  await seed(ctx, 3);
  if (r.chance(0.5)) await run(ctx, ctx.b, { insert: target, documents: [{ _id: 't' }] });
  if (r.chance(0.3))
    await run(ctx, ctx.b, { createIndexes: ctx.coll, indexes: [{ key: { k: 1 }, name: 'k_1' }] });
  for (let step = 0; step < 3; step++) {
    const before = [await snapshot(ctx), await snapshot(ctx, target)].map((m) => [...m].join());
    let reply: Doc | undefined;
    if (r.chance(0.5)) {
      const [from, to] = r.chance(0.8) ? [ctx.coll, target] : [target, ctx.coll];
      reply = await run(
        ctx,
        ctx.a,
        makeDoc([
          ['renameCollection', r.chance(0.9) ? `scen.${from}` : hostileScalar(r)],
          [
            'to',
            r.pick([`scen.${to}`, `scen.${from}`, `other.${to}`, 'scen.', 'scen.system.x', hostileScalar(r)]),
          ],
          ['dropTarget', r.pick([true, false, 1, 'x'])],
          ['$db', 'admin'],
        ]),
      );
    } else {
      const options = r.pick<[string, unknown][]>([
        [
          ['validator', { k: { $type: 'int' } }],
          ['validationLevel', r.pick(['strict', 'moderate', 'off', 'x'])],
        ],
        [['validationAction', r.pick(['error', 'warn', 'x'])]],
        [['index', { name: 'k_1', hidden: r.pick([true, false, 'x']) }]],
        [['index', { keyPattern: { k: 1 }, expireAfterSeconds: r.pick([10, -1, 'x']) }]],
        [['index', { name: 'nope', hidden: true }]],
        [['cappedSize', r.pick([4096, 0, -1])]],
        [
          ['viewOn', ctx.coll],
          ['pipeline', []],
        ],
        [[r.pick(['nope', 'validator', 'index']), hostileValue(r, 2)]],
      ]);
      reply = await run(ctx, ctx.a, makeDoc([['collMod', r.pick([ctx.coll, target])], ...options]));
    }
    if (reply === undefined || reply.ok === 1) continue;
    const after = [await snapshot(ctx), await snapshot(ctx, target)].map((m) => [...m].join());
    if (before.join('|') !== after.join('|'))
      ctx.record(
        'failed catalog command changed data',
        `${String(reply.errmsg)}: ${before.join('|')} -> ${after.join('|')}`,
      );
  }
  const count = await run(ctx, ctx.b, { count: ctx.coll });
  const found = (await snapshot(ctx)).size;
  if (count?.ok === 1 && count.n !== found)
    ctx.record('count disagrees with find', `${String(count.n)} vs ${found}`);
}

/** A capped collection written past its `max`: it keeps the newest documents, in insertion order. */
async function capped(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  const coll = `${ctx.coll}_t`;
  const max = r.pick([1, 3, 10]);
  const create = await run(ctx, ctx.a, { create: coll, capped: true, size: r.pick([4096, 100_000, 1]), max });
  if (create?.ok !== 1) return;
  const inserted: number[] = [];
  for (let i = 0; i < 20; i++) {
    const roll = r.int(10);
    if (roll < 6) {
      const doc = { _id: i, pad: 'x'.repeat(r.pick([0, 10, 500])) };
      const reply = await run(ctx, r.chance(0.5) ? ctx.a : ctx.b, { insert: coll, documents: [doc] });
      if (reply?.ok === 1 && reply.n === 1) inserted.push(i);
    } else if (roll < 8) {
      await run(ctx, ctx.a, {
        update: coll,
        updates: [{ q: { _id: r.int(20) }, u: { $set: { pad: 'y'.repeat(r.pick([0, 5, 5000])) } } }],
      });
    } else if (roll < 9) {
      const reply = await run(ctx, ctx.a, { delete: coll, deletes: [{ q: { _id: r.int(20) }, limit: 1 }] });
      if (reply?.ok === 1 && (reply.n as number) > 0) return; // the oracle below is about inserts only
    } else {
      await run(ctx, ctx.b, { find: coll, filter: {}, tailable: true, batchSize: 1 });
    }
  }
  const reply = await run(ctx, ctx.b, { find: coll, filter: {}, sort: { $natural: 1 } });
  const ids = ((cursorOf(reply)?.firstBatch as Doc[] | undefined) ?? []).map((d) => d._id as number);
  if (ids.length > max) ctx.record('capped collection over max', `${ids.length} > ${max}`);
  const tail = inserted.slice(inserted.length - ids.length);
  if (ids.length > 0 && ids.join() !== tail.join())
    ctx.record('capped collection kept the wrong documents', `${ids.join()} vs inserted ${inserted.join()}`);
}

/** Views over views (with random stages): reads work or fail cleanly, writes and cycles are refused. */
async function viewsOverViews(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  await seed(ctx, 4);
  const before = await snapshot(ctx);
  const names = [`${ctx.coll}_v0`, `${ctx.coll}_v1`, `${ctx.coll}_v2`];
  const created = new Set<string>();
  let on = ctx.coll;
  for (const name of names) {
    const pipeline = r.pick<Doc[]>([
      [],
      [{ $match: { k: { $gte: 1 } } }],
      [{ $project: { k: 1, arr: 1 } }],
      [{ $addFields: { z: '$k' } }, { $sort: { z: -1 } }],
      [stage(r, 1)],
    ]);
    const reply = await run(ctx, ctx.b, { create: name, viewOn: on, pipeline });
    if (reply?.ok === 1) created.add(name);
    on = name;
  }
  if (created.size === names.length) {
    const cycle = await run(ctx, ctx.a, { collMod: names[0], viewOn: names[2], pipeline: [] });
    if (cycle?.ok === 1) ctx.record('view cycle accepted', `${names[0]} on ${names[2]}`);
  }
  for (let i = 0; i < 4; i++) {
    const view = r.pick(names);
    const roll = r.int(5);
    if (roll === 0)
      await run(ctx, ctx.a, { find: view, filter: {}, sort: r.pick([{}, { _id: -1 }]), limit: 3 });
    if (roll === 1) await run(ctx, ctx.a, { aggregate: view, pipeline: [stage(r, 1)], cursor: {} });
    if (roll === 2) await run(ctx, ctx.a, { count: view, query: {} });
    if (roll === 3) await run(ctx, ctx.a, { distinct: view, key: r.pick(['k', 'arr.v', '_id']) });
    if (roll === 4) {
      const write = r.pick<Doc>([
        { insert: view, documents: [{ _id: 99 }] },
        { update: view, updates: [{ q: {}, u: { $set: { k: 9 } } }] },
        { delete: view, deletes: [{ q: {}, limit: 0 }] },
        { createIndexes: view, indexes: [{ key: { k: 1 }, name: 'k_1' }] },
      ]);
      const reply = await run(ctx, ctx.a, write);
      if (created.has(view) && reply !== undefined && codeOf(reply) === undefined)
        ctx.record('write to a view accepted', ejson(write));
    }
  }
  if (r.chance(0.3)) await run(ctx, ctx.b, { drop: names[1] });
  await run(ctx, ctx.a, { find: names[2], filter: {} });
  const after = await snapshot(ctx);
  if ([...before].join() !== [...after].join()) ctx.record('view command changed the collection', '');
  for (const name of names) await run(ctx, ctx.b, { drop: name });
}

/** A value nested `levels` deep (the document holding it adds one). */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { n: value };
  return value;
}

/**
 * Documents at MongoDB's limits inserted and then updated: an acknowledged one reads back as sent, a
 * refused one leaves nothing (or the document as it was) behind.
 */
async function sizeLimits(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  const coll = `${ctx.coll}_big`;
  const shape = r.int(6);
  const doc: Doc = { _id: 1 };
  if (shape === 0) {
    // 16 MiB exactly, give or take a byte.
    const overhead = BSON.calculateObjectSize({ _id: 1, s: '' });
    doc.s = 'x'.repeat(16 * 1024 * 1024 - overhead + r.pick([-1, 0, 1, 100]));
  } else if (shape === 1) doc.deep = nested(r.pick([98, 99, 100, 101]));
  else if (shape === 2) doc['f'.repeat(r.pick([1000, 100_000, 1_000_000]))] = 1;
  else if (shape === 3) doc[r.pick(['$x', '$', 'a.b', '.a', 'a.', '$db', '$id', '$ref', '$$x'])] = 1;
  else if (shape === 4) doc.a = { [r.pick(['$x', 'b.c', '$', '$ref', '$id', '.'])]: r.pick([1, { $y: 2 }]) };
  else doc.arr = Array.from({ length: r.pick([1000, 100_000]) }, (_, i) => i);
  const insert = await run(ctx, ctx.a, { insert: coll, documents: [doc] });
  const stored = async (): Promise<string | undefined> => {
    const reply = await run(ctx, ctx.b, { find: coll, filter: { _id: 1 } });
    const [found] = (cursorOf(reply)?.firstBatch as Doc[] | undefined) ?? [];
    return found === undefined ? undefined : ejson(found);
  };
  let now = await stored();
  const acknowledged = insert?.ok === 1 && insert.n === 1;
  if (acknowledged && now !== ejson(doc))
    ctx.record('inserted document reads back changed', `shape ${shape}`);
  if (!acknowledged && now !== undefined) ctx.record('refused insert stored a document', `shape ${shape}`);
  if (!acknowledged) await run(ctx, ctx.a, { insert: coll, documents: [{ _id: 1, s: 'small' }] });
  now = await stored();
  const updates = [
    { $set: { grow: 'y'.repeat(r.pick([10, 8 * 1024 * 1024, 16 * 1024 * 1024])) } },
    { $set: { [r.pick(['deep', 'x'])]: nested(r.pick([99, 100, 101])) } },
    { $set: { [r.pick(['a.$x', '$x', 'a..b', 'a.b.c'])]: 1 } },
    { $set: { 'deep.n.n': 2 } },
    [{ $set: { [r.pick(['x', 'a'])]: { $literal: { $x: 1, 'b.c': 2 } } } }],
    [{ $replaceWith: { $setField: { field: r.pick(['$x', 'a.b', '$']), input: '$$ROOT', value: 1 } } }],
    [{ $set: { big: { $concat: ['$s', '$s'] } } }],
  ];
  const update = r.pick<unknown>(updates);
  const reply = await run(ctx, ctx.a, { update: coll, updates: [{ q: { _id: 1 }, u: update }] });
  const after = await stored();
  if (reply?.ok !== 1 || (reply.writeErrors as unknown[] | undefined) !== undefined) {
    if (after !== now) ctx.record('failed update changed the document', ejson(update).slice(0, 200));
  } else if (reply.nModified === 1 && after === now) {
    ctx.record('acknowledged update not stored', ejson(update).slice(0, 200));
  }
  await run(ctx, ctx.b, { drop: coll });
}

/** The catalog scenarios, by name. */
export const CATALOG_SCENARIOS: Record<string, (ctx: ScenarioContext) => Promise<void>> = {
  cursors,
  renameAndCollMod,
  capped,
  viewsOverViews,
  sizeLimits,
};
