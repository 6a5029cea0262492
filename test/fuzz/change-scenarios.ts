/**
 * A scenario for the wire fuzzer that replays a change stream: random writes (operator updates on
 * dotted and positional paths, pipelines, replacements, upserts, deletes, inserts) go to a collection
 * while a change stream watches it; the events, applied in order to the documents as they were when it
 * opened (an update's `updatedFields`, `removedFields` and `truncatedArrays`, as the manual's Change
 * Events page describes them), must give the documents the collection ends with. A consumer that keeps
 * a copy in sync this way loses nothing.
 */
import { BSON } from 'bson';
import { type Random, makeDoc } from './hostile-values.js';
import { arrayFilters, run, scenarioUpdate, seed, type ScenarioContext } from './scenarios.js';

type Doc = Record<string, unknown>;

const ejson = (value: unknown): string => BSON.EJSON.stringify(value, { relaxed: false });

/** Canonical Extended JSON (`text`) with every document's fields sorted by name. */
function fieldsSorted(text: string): string {
  const sort = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sort)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, sort((value as Doc)[key])]),
          )
        : value;
  return text === 'none' ? text : JSON.stringify(sort(JSON.parse(text)));
}

/** The collection's documents by `_id`, as canonical Extended JSON (which keeps every number's type). */
async function state(ctx: ScenarioContext): Promise<Map<string, string>> {
  const reply = await run(ctx, ctx.b, { find: ctx.coll, filter: {}, batchSize: 100_000 });
  const docs = ((reply?.cursor as Doc | undefined)?.firstBatch as Doc[] | undefined) ?? [];
  return new Map(docs.map((doc) => [ejson(doc._id), ejson(doc)]));
}

/** Sets field `key` of `holder` as an own field (`__proto__` too, which assignment would not create). */
function setField(holder: Doc | unknown[], key: string, value: unknown): void {
  if (Array.isArray(holder)) holder[Number(key)] = value;
  else Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The container and key a dotted path ends at, creating documents on the way (as `$set` does). */
function locate(doc: Doc, path: string): { holder: Doc | unknown[]; key: string } {
  const parts = path.split('.');
  let holder: Doc | unknown[] = doc;
  for (const part of parts.slice(0, -1)) {
    const next = Array.isArray(holder)
      ? holder[Number(part)]
      : Object.hasOwn(holder, part)
        ? holder[part]
        : undefined;
    if (typeof next !== 'object' || next === null) {
      const made: Doc = {};
      setField(holder, part, made);
      holder = made;
    } else holder = next as Doc | unknown[];
  }
  return { holder, key: parts[parts.length - 1]! };
}

/** Applies one update event's description to `doc`, in place. */
function applyDescription(doc: Doc, description: Doc): void {
  for (const { field, newSize } of (description.truncatedArrays as { field: string; newSize: number }[]) ??
    []) {
    const { holder, key } = locate(doc, field);
    const array = (
      Array.isArray(holder) ? holder[Number(key)] : Object.hasOwn(holder, key) ? holder[key] : undefined
    ) as unknown[];
    if (Array.isArray(array)) array.length = newSize;
  }
  for (const [path, value] of Object.entries((description.updatedFields as Doc) ?? {})) {
    const { holder, key } = locate(doc, path);
    if (Array.isArray(holder)) while (holder.length < Number(key)) holder.push(null);
    setField(holder, key, value);
  }
  for (const path of (description.removedFields as string[]) ?? []) {
    const { holder, key } = locate(doc, path);
    if (Array.isArray(holder)) holder[Number(key)] = null;
    else delete holder[key];
  }
}

/** An update that usually applies: valid operators on the seeded fields, with matching arrayFilters. */
function plausibleUpdate(r: Random): { u: unknown; arrayFilters?: Doc[] } {
  const pick = (): [string, Doc] =>
    r.pick<[string, Doc]>([
      [
        '$set',
        {
          [r.pick(['k', 's', 'nested.x.y', 'nested.z', 'arr.0.v', 'nums.1', 'nums.4', 'new.a'])]:
            r.pick<unknown>([1, 'w', { b: 1, a: 2 }, [1, 2], null, 2.5]),
        },
      ],
      ['$set', { 'arr.$[e].v': r.pick([7, 'x']) }],
      ['$set', { 'nums.$[f]': 0 }],
      [
        '$inc',
        {
          [r.pick(['k', 'nums.0', 'nested.x.y', 'z'])]: r.pick<unknown>([
            1,
            -1,
            0.5,
            BSON.Long.fromNumber(2),
          ]),
        },
      ],
      ['$unset', { [r.pick(['k', 's', 'nested.x', 'arr.0', 'nums.1', 'arr.1.v'])]: '' }],
      [
        '$push',
        {
          [r.pick(['nums', 'arr', 'nested.list'])]: r.pick<unknown>([
            3,
            { $each: [4, 5], $slice: -3 },
            { $each: [0], $position: 0 },
            { $each: [], $sort: 1 },
          ]),
        },
      ],
      ['$pull', { nums: r.pick<unknown>([1, { $gte: 3 }]) }],
      ['$pop', { [r.pick(['nums', 'arr'])]: r.pick([1, -1]) }],
      ['$addToSet', { nums: r.pick<unknown>([1, { $each: [2, 9] }]) }],
      ['$rename', { [r.pick(['k', 's', 'nested.x'])]: r.pick(['kk', 'nested.r', 'z']) }],
      ['$mul', { [r.pick(['k', 'nums.0'])]: r.pick([2, -1, 0]) }],
      ['$max', { k: r.int(5) }],
      ['$set', { [r.pick(['arr.$[].v', 'nums.$[]'])]: r.pick([1, 'all']) }],
    ]);
  const u: Doc = {};
  for (let i = 0; i < 1 + r.int(2); i++) {
    const [op, fields] = pick();
    const [path] = Object.keys(fields);
    // Two operators on one path conflict: keep the first.
    if (Object.values(u).some((f) => path! in (f as Doc))) continue;
    u[op] = { ...(u[op] as Doc | undefined), ...fields };
  }
  const text = JSON.stringify(u);
  const arrayFilters: Doc[] = [];
  if (text.includes('$[e]')) arrayFilters.push({ 'e.id': { $gte: r.int(2) } });
  if (text.includes('$[f]')) arrayFilters.push({ f: { $gt: r.int(4) } });
  return arrayFilters.length > 0 ? { u, arrayFilters } : { u };
}

/** A random write to the scenario's collection. */
function write(ctx: ScenarioContext, i: number): Doc {
  const { r, coll } = ctx;
  const q = r.pick<Doc>([{ _id: r.int(6) }, {}, { k: r.int(4) }, { 'arr.id': r.int(3) }, { nums: r.int(6) }]);
  const filters = r.chance(0.4) ? [['arrayFilters', arrayFilters(r)] as [string, unknown]] : [];
  switch (r.int(8)) {
    case 0:
      return { insert: coll, documents: [{ _id: 100 + i, k: i, arr: [{ id: 0, v: i }], nums: [i] }] };
    case 1:
      return { delete: coll, deletes: [{ q, limit: r.pick([0, 1]) }] };
    case 2:
      return {
        update: coll,
        updates: [{ q: { _id: r.int(6) }, u: { k: r.int(3), s: 'replaced', nums: [1] } }],
      };
    case 3:
      return makeDoc([['findAndModify', coll], ['query', q], ['update', scenarioUpdate(r)], ...filters]);
    case 4:
    case 5: {
      const update = plausibleUpdate(r);
      return {
        update: coll,
        updates: [{ q, ...update, multi: true, upsert: r.chance(0.1) }],
      };
    }
    default: {
      const u = scenarioUpdate(r);
      return {
        update: coll,
        updates: [
          makeDoc([
            ['q', q],
            ['u', u],
            ['multi', !Array.isArray(u) || r.chance(0.5)],
            ['upsert', r.chance(0.15)],
            ...filters,
          ]),
        ],
      };
    }
  }
}

/** Writes while a change stream watches; the events replayed on the first state give the last. */
async function changeReplay(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  await seed(ctx, 3 + r.int(4));
  const start = await state(ctx);
  const opened = await run(ctx, ctx.a, {
    aggregate: ctx.coll,
    pipeline: [{ $changeStream: {} }],
    cursor: {},
  });
  const cursorId = (opened?.cursor as Doc | undefined)?.id;
  if (opened?.ok !== 1 || cursorId === undefined) return;
  // A pipeline update can reorder fields, which an update description cannot say (its updatedFields
  // set a field where it stands), so after one the replay is compared regardless of field order.
  let reordering = false;
  for (let i = 0; i < 3 + r.int(6); i++) {
    const command = write(ctx, i);
    const update = (command.updates as Doc[] | undefined)?.[0]?.u ?? command.update;
    if (Array.isArray(update)) reordering = true;
    await run(ctx, ctx.b, command);
  }
  const endId = 'end of scenario';
  await run(ctx, ctx.b, { insert: ctx.coll, documents: [{ _id: endId }] });
  const events: Doc[] = [];
  for (let i = 0; i < 20 && !events.some((e) => (e.documentKey as Doc | undefined)?._id === endId); i++) {
    const more = await run(ctx, ctx.a, { getMore: cursorId, collection: ctx.coll, maxTimeMS: 200 });
    if (more?.ok !== 1) return;
    events.push(...(((more.cursor as Doc).nextBatch as Doc[] | undefined) ?? []));
  }
  await run(ctx, ctx.a, { killCursors: ctx.coll, cursors: [cursorId] });
  const end = await state(ctx);
  const docs = new Map<string, Doc>();
  for (const [id, text] of start) docs.set(id, BSON.EJSON.parse(text, { relaxed: false }) as Doc);
  for (const event of events) {
    const id = ejson((event.documentKey as Doc | undefined)?._id);
    switch (event.operationType) {
      case 'insert':
      case 'replace':
        docs.set(id, event.fullDocument as Doc);
        break;
      case 'delete':
        docs.delete(id);
        break;
      case 'update': {
        const doc = docs.get(id);
        if (doc === undefined) ctx.record('change stream replay', `update of an unknown document ${id}`);
        else applyDescription(doc, event.updateDescription as Doc);
        break;
      }
      default:
        ctx.record('change stream replay', `unexpected event ${ejson(event).slice(0, 300)}`);
    }
  }
  for (const id of new Set([...docs.keys(), ...end.keys()])) {
    const replayed = docs.has(id) ? ejson(docs.get(id)) : 'none';
    const stored = end.get(id) ?? 'none';
    if (replayed !== stored && !(reordering && fieldsSorted(replayed) === fieldsSorted(stored)))
      ctx.record(
        'change stream replay',
        `${id}: events give ${replayed.slice(0, 400)}, the collection holds ${(end.get(id) ?? 'none').slice(0, 400)}`,
      );
  }
}

/** The scenarios, by name. */
export const CHANGE_SCENARIOS: Record<string, (ctx: ScenarioContext) => Promise<void>> = { changeReplay };
