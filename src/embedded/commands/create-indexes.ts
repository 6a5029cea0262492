/**
 * The `createIndexes` command: checks the request as MongoDB 7.0 does (see index-args.ts), refuses
 * conflicts with existing indexes and between the indexes of one request (same name with another key,
 * same key under another name, the same index twice), then builds the new indexes on a copy so a
 * failure leaves the collection as it was.
 */
import { bsonText } from '../engine/bson-text.js';
import { Index, parseIndexSpec, sameIndex } from '../engine/indexes.js';
import type { IndexSpec } from '../engine/indexes.js';
import { checkIndexableIn, collectionIn, createIn } from '../engine/transaction-ddl.js';
import { keyOf } from '../engine/values.js';
import { refuseView } from '../engine/views.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';
import { parseCollation } from './collation.js';
import type { CommandContext, Handler } from './context.js';
import { retryBlocked } from './context.js';
import { checkSpecShape, indexCommandTarget, indexesArgument, versionedSpecText } from './index-args.js';

/** IndexAlreadyExists (68): the code has no entry in the shared table, so its name is set here. */
class IndexAlreadyExists extends CommandError {
  override readonly codeName = 'IndexAlreadyExists';
}

const ID_KEY = keyOf({ _id: 1 });

/** Parses one entry of `indexes`. @throws CommandError as MongoDB answers a bad specification. */
function parseEntry(raw: Doc): { spec: IndexSpec; explicit: boolean } {
  checkSpecShape(raw);
  const explicit = raw['collation'] !== undefined;
  if (explicit) parseCollation(raw['collation'], 'index');
  const spec = parseIndexSpec(raw);
  if (keyOf(spec.key) === ID_KEY) {
    for (const option of ['unique', 'sparse']) {
      if (raw[option] !== undefined) {
        throw new CommandError(
          ErrorCodes.InvalidIndexSpecificationOption,
          `The field '${option}' is not valid for an _id index specification. Specification: ${versionedSpecText(raw)}`,
        );
      }
    }
  }
  return { spec, explicit };
}

/**
 * True when `spec` is already built (`existing` holds it); throws when it conflicts with an existing
 * index or with one requested earlier in the same command (`requested`).
 * @throws CommandError IndexAlreadyExists (68), IndexOptionsConflict (85), IndexKeySpecsConflict (86).
 */
function alreadyBuilt(spec: IndexSpec, existing: IndexSpec[], requested: IndexSpec[]): boolean {
  for (const other of [...existing, ...requested]) {
    if (other.name !== spec.name) continue;
    if (sameIndex(other, spec)) {
      if (existing.includes(other)) return true;
      throw new IndexAlreadyExists(68, `Identical index already exists: ${spec.name}`);
    }
    throw new CommandError(
      keyOf(other.key) === keyOf(spec.key)
        ? ErrorCodes.IndexOptionsConflict
        : ErrorCodes.IndexKeySpecsConflict,
      'An existing index has the same name as the requested index. When index names are not specified, they ' +
        'are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ' +
        `${bsonText(new Index(spec).describe())}, existing index: ${bsonText(new Index(other).describe())}`,
    );
  }
  const sameKey = [...existing, ...requested].find(
    (other) =>
      keyOf(other.key) === keyOf(spec.key) &&
      keyOf(other.collation ?? null) === keyOf(spec.collation ?? null) &&
      !other.partialFilterExpression &&
      !spec.partialFilterExpression,
  );
  if (sameKey)
    throw new CommandError(
      ErrorCodes.IndexOptionsConflict,
      `Index already exists with a different name: ${sameKey.name}`,
    );
  const isText = (s: IndexSpec): boolean => Object.values(s.key).includes('text');
  if (isText(spec) && [...existing, ...requested].some(isText)) {
    throw new CommandError(
      ErrorCodes.IndexOptionsConflict,
      'An equivalent index already exists with a different name and options (only one text index per collection)',
    );
  }
  return false;
}

/**
 * The `createIndexes` command. As in MongoDB 7.0 (create_indexes_cmd.cpp, then
 * index_builds_coordinator.cpp `_filterSpecsAndRegisterBuild`), the request is first checked against
 * the existing indexes without waiting (indexes that all exist already, or a conflict, answer at once);
 * building a new index on an existing collection outside a transaction takes the collection's exclusive
 * lock, so it waits while an open transaction uses the collection.
 * @throws CommandError as {@link alreadyBuilt} and the spec checks do; 263 for a new index on an
 * existing collection in a transaction; what {@link retryBlocked} throws when the wait is over.
 */
export const createIndexes: Handler = (cmd, ctx) => {
  const name = indexCommandTarget(cmd, 'createIndexes', ctx.db);
  const parsed = indexesArgument(cmd).map(parseEntry);
  return retryBlocked(ctx, () => createIndexesNow(ctx, name, parsed));
};

function createIndexesNow(
  ctx: CommandContext,
  name: string,
  parsed: { spec: IndexSpec; explicit: boolean }[],
): Doc {
  const engine = ctx.core.engine;
  checkIndexableIn(engine, ctx.db, name, ctx.txn);
  // Conflicts are found before the collection is created, so a refused request creates nothing.
  const found = collectionIn(engine, ctx.db, name, ctx.txn);
  refuseView(found);
  const existing = found ? engine.readState(found, ctx.txn).indexes.map((i) => i.spec) : [];
  const toAdd: IndexSpec[] = [];
  for (const { spec, explicit } of parsed) {
    // Indexes inherit the collection's default collation unless they name their own (`simple` included).
    if (!explicit && found?.options.collation) spec.collation = found.options.collation;
    // The `_id` index always exists: asking for it again changes nothing.
    if (keyOf(spec.key) === ID_KEY) continue;
    if (!alreadyBuilt(spec, existing, toAdd)) toAdd.push(spec);
  }
  // Inside a transaction the collection is its own (see checkIndexableIn): nobody else holds it.
  if (found && !ctx.txn && toAdd.length > 0) engine.checkExclusive(found.ns);
  const coll = createIn(engine, ctx.db, name, ctx.txn);
  // Inside a transaction the collection is its own (see checkIndexableIn): its indexes go to its state.
  const base = engine.readState(coll, ctx.txn);
  const before = base.indexes.length + 1;
  // Build on a copy so a failure (duplicates in existing data) leaves the collection unchanged.
  const draft = base.clone();
  for (const spec of toAdd) draft.addIndex(coll.ns, spec);
  const state = engine.writeState(coll, ctx.txn);
  state.indexes = draft.indexes;
  if (!ctx.txn) engine.emit(toAdd.map((spec) => ({ op: 'createIndex' as const, ns: coll.ns, spec })));
  const reply: Doc = {
    numIndexesBefore: before,
    numIndexesAfter: state.indexes.length + 1,
    createdCollectionAutomatically: !found,
    ok: 1,
  };
  if (toAdd.length === 0) reply['note'] = 'all indexes already exist';
  return reply;
}
