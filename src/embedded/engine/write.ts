/**
 * Write statements (insert, update, delete, findAndModify) against one collection, inside a transaction
 * or not. Each statement checks for conflicts before changing anything.
 */
import { ObjectId } from 'bson';
import { recordWrite } from './change-record.js';
import { CollectionState } from './collection.js';
import type { Collection } from './collection.js';
import type { Engine } from './database.js';
import type { Collation } from './collation.js';
import { tickDeadline } from './deadline.js';
import { checkIdField } from './id-field.js';
import { checkStorable } from './limits.js';
import { checkArrayFilters } from './array-filters.js';
import { positionalField, positionalQuery } from './positional.js';
import { matchDocs, runQuery } from './read.js';
import { compile, prepareFilter, splitText } from './query.js';
import type { Transaction, TxnWrite } from './transaction.js';
import { applyUpdate, buildUpsert, checkUpdate, updateKind } from './update.js';
import { validationDetails } from './validation-details.js';
import { cloneValue, idFirst, keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

function recordTxn(txn: Transaction, ns: string, idKey: string, doc: Doc | undefined): void {
  let writes = txn.writes.get(ns);
  if (!writes) txn.writes.set(ns, (writes = new Map<string, TxnWrite>()));
  writes.set(idKey, doc ? { kind: 'put', doc } : { kind: 'delete' });
}

/** Whether the write running now asked for `bypassDocumentValidation` (see {@link withoutValidation}). */
let bypassing = false;

/**
 * Runs `write`, which must be synchronous, with every collection validator off when `bypass` is true: a
 * command's `bypassDocumentValidation`, which MongoDB applies to the whole operation
 * (DisableDocumentValidation, src/mongo/db/catalog/document_validation.h). Writes run one at a time, so
 * no other command's write sees the switch.
 */
export function withoutValidation<T>(bypass: boolean, write: () => T): T {
  if (!bypass) return write();
  const outer = bypassing;
  bypassing = true;
  try {
    return write();
  } finally {
    bypassing = outer;
  }
}

/**
 * Enforces the collection validator (validationLevel strict/moderate, validationAction error/warn),
 * unless the write runs {@link withoutValidation}.
 * @throws CommandError DocumentValidationFailure (121).
 */
export function validate(coll: Collection, doc: Doc, old: Doc | undefined): void {
  const validator = coll.options.validator;
  if (bypassing || !validator || Object.keys(validator).length === 0) return;
  const level = coll.options['validationLevel'] ?? 'strict';
  if (level === 'off' || coll.options['validationAction'] === 'warn') return;
  const query = compile(prepareFilter(validator));
  if (query.test(doc)) return;
  if (level === 'moderate' && old && !query.test(old)) return;
  throw new CommandError(ErrorCodes.DocumentValidationFailure, 'Document failed validation', {
    extra: {
      errInfo: {
        failingDocumentId: doc['_id'],
        details: validationDetails(validator, doc),
      },
    },
  });
}

/**
 * Stores a document (new when `oldIdKey` is undefined); callers have checked it with `checkStorable`.
 * `update` is the update that produced it, which the change event describes.
 */
function put(
  engine: Engine,
  coll: Collection,
  txn: Transaction | undefined,
  doc: Doc,
  oldIdKey?: string,
  replacement = false,
  update?: unknown,
): void {
  const idKey = keyOf(doc['_id']);
  const before = oldIdKey === undefined ? undefined : engine.readState(coll, txn).docs.get(oldIdKey);
  validate(coll, doc, before);
  engine.writeState(coll, txn).put(coll.ns, doc, oldIdKey);
  // Journaled before change streams hear of it: a write the journal refuses is never an event.
  if (!txn) {
    engine.touched(coll, idKey, before);
    engine.emit([{ op: 'put', ns: coll.ns, doc }]);
  }
  recordWrite(engine, coll, txn, before, doc, replacement, update);
  if (txn) recordTxn(txn, coll.ns, idKey, doc);
}

function remove(
  engine: Engine,
  coll: Collection,
  txn: Transaction | undefined,
  idKey: string,
): Doc | undefined {
  const old = engine.writeState(coll, txn).remove(idKey);
  if (!old) return undefined;
  if (!txn) {
    engine.touched(coll, idKey, old);
    engine.emit([{ op: 'delete', ns: coll.ns, id: old['_id'] }]);
  }
  recordWrite(engine, coll, txn, old, undefined);
  if (txn) recordTxn(txn, coll.ns, idKey, undefined);
  return old;
}

/**
 * Validates and normalizes a document for insertion: generates `_id`, moves it first, copies it.
 * @throws CommandError InvalidIdField (53) / DollarPrefixedFieldName (52) for an `_id` MongoDB refuses.
 */
export function prepareInsert(raw: unknown): Doc {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new CommandError(ErrorCodes.TypeMismatch, 'document to insert must be an object');
  let doc = cloneValue(raw as Doc);
  if (doc['_id'] === undefined) doc = { _id: new ObjectId(), ...doc };
  checkIdField(doc['_id']);
  return idFirst(doc);
}

/** Inserts one document. @throws CommandError DuplicateKey (11000) and others. */
export function insertOne(engine: Engine, coll: Collection, txn: Transaction | undefined, raw: unknown): Doc {
  const doc = prepareInsert(raw);
  const idKey = keyOf(doc['_id']);
  engine.checkWrite(coll, idKey, txn);
  const state = engine.readState(coll, txn);
  // The `_id` index holds strings under the collection's default collation: 'A' is a duplicate of 'a'.
  state.collateIds(coll.options.collation);
  if (state.heldId(doc['_id']) !== undefined) throw state.duplicateId(coll.ns, doc['_id']);
  checkStorable(doc, 'insert');
  put(engine, coll, txn, doc);
  return doc;
}

/** One statement of an `update` command. */
export interface UpdateStatement {
  q: unknown;
  u: unknown;
  multi?: boolean;
  upsert?: boolean;
  arrayFilters?: Doc[];
  collation?: Collation;
  sort?: Doc;
  let?: Doc;
}

/** Result of one update statement. */
export interface UpdateResult {
  n: number;
  nModified: number;
  upserted?: unknown;
}

/**
 * Runs one update statement.
 * @throws CommandError on invalid updates, duplicates, conflicts; MaxTimeMSExpired (50) once the
 *   command's `maxTimeMS` passes while documents are matched or updated; BlockedByTransaction for plain
 *   writes to a document an open transaction owns (nothing has been changed in either case).
 */
export function updateStatement(
  engine: Engine,
  coll: Collection,
  txn: Transaction | undefined,
  st: UpdateStatement,
): UpdateResult {
  const kind = checkUpdate(st.u);
  checkArrayFilters(st.u, st.arrayFilters);
  if (st.multi && kind === 'replacement')
    throw new CommandError(
      ErrorCodes.FailedToParse,
      'multi update is not supported for replacement-style update',
    );
  const state = engine.readState(coll, txn);
  let matched = matchDocs(state, st.q, st.collation, st.let).docs;
  if (!st.multi && matched.length > 1) {
    matched = st.sort
      ? runQuery(state, {
          filter: { _id: { $in: matched.map((d) => d['_id']) } },
          sort: st.sort,
          limit: 1,
          collation: st.collation,
        })
      : matched.slice(0, 1);
    if (st.sort) matched = matched.map((d) => state.docs.get(keyOf(d['_id']))!);
  }
  const filter = splitText(prepareFilter(st.q)).rest;
  if (matched.length === 0) {
    if (!st.upsert) return { n: 0, nModified: 0 };
    const doc = buildUpsert(filter, st.u, {
      arrayFilters: st.arrayFilters,
      collation: st.collation,
      variables: st.let,
    });
    insertOne(engine, coll, txn, doc);
    return { n: 1, nModified: 0, upserted: doc['_id'] };
  }
  const updates: { idKey: string; doc: Doc }[] = [];
  for (const old of matched) {
    tickDeadline();
    const idKey = keyOf(old['_id']);
    engine.checkWrite(coll, idKey, txn);
    const { doc, changed } = applyUpdate(old, st.u, {
      arrayFilters: st.arrayFilters,
      filter,
      collation: st.collation,
      variables: st.let,
    });
    if (changed) updates.push({ idKey, doc });
  }
  // A multi update refuses before changing anything when one result may not be stored.
  for (const { doc } of updates) checkStorable(doc, 'update');
  for (const { idKey, doc } of updates) put(engine, coll, txn, doc, idKey, kind === 'replacement', st.u);
  return { n: matched.length, nModified: updates.length };
}

/** Runs one delete statement (`limit` 1 or 0 = all); returns the number deleted. */
export function deleteStatement(
  engine: Engine,
  coll: Collection,
  txn: Transaction | undefined,
  q: unknown,
  limit: number,
  collation?: Collation,
  variables?: Doc,
): number {
  const state = engine.readState(coll, txn);
  let matched = matchDocs(state, q, collation, variables).docs;
  if (limit === 1) matched = matched.slice(0, 1);
  const ids = matched.map((d) => keyOf(d['_id']));
  for (const idKey of ids) engine.checkWrite(coll, idKey, txn);
  for (const idKey of ids) remove(engine, coll, txn, idKey);
  return ids.length;
}

/** Arguments of findAndModify. */
export interface FindAndModifyArgs {
  query?: unknown;
  sort?: Doc;
  remove?: boolean;
  update?: unknown;
  new?: boolean;
  fields?: Doc;
  upsert?: boolean;
  arrayFilters?: Doc[];
  collation?: Collation;
  let?: Doc;
}

/**
 * The reply's `value`: `doc` through `fields`, the positional `.$` element found with the command's query.
 * Computed before the write it reports, so a projection that fails leaves the collection unchanged.
 */
function project(doc: Doc | undefined, args: FindAndModifyArgs): Doc | null {
  if (!doc) return null;
  const fields = args.fields;
  if (!fields || Object.keys(fields).length === 0) return cloneValue(doc);
  // Keyed as a collection keys it: a query on `_id` looks the document up by that key.
  const state = new CollectionState(new Map([[keyOf(doc['_id']), doc]]));
  const spec = { projection: fields, collation: args.collation };
  if (positionalField(fields) === undefined) return runQuery(state, spec)[0] ?? {};
  // The filter (and the `let` it may read) finds the element; the projection still cannot read `let`.
  return runQuery(state, { ...spec, filter: args.query, variables: args.let })[0] ?? {};
}

/**
 * The projection's checks MongoDB 7.0 makes while it plans the command, before it reads or writes a
 * document (get_executor.cpp): a positional `.$` must name a field of the query, and cannot project the
 * new document, whose array need not match the query any more.
 * @throws CommandError 31277, or BadValue for a positional projection with `new: true`.
 */
function checkFields(args: FindAndModifyArgs): void {
  const field = positionalField(args.fields);
  if (field === undefined) return;
  positionalQuery(args.query, field);
  if (args.new && !args.remove)
    throw new CommandError(
      ErrorCodes.BadValue,
      'cannot use a positional projection and return the new document',
    );
}

/** MongoDB 7.0's checks on findAndModify's arguments, in its order (find_and_modify.cpp). */
function checkFindAndModify(args: FindAndModifyArgs): void {
  const kind = args.update === undefined ? undefined : updateKind(args.update);
  const fail = (message: string): never => {
    throw new CommandError(ErrorCodes.FailedToParse, message);
  };
  if (!args.remove && kind === undefined) fail('Either an update or remove=true must be specified');
  if (args.remove) {
    if (kind !== undefined) fail('Cannot specify both an update and remove=true');
    if (args.upsert) fail('Cannot specify both upsert=true and remove=true ');
    if (args.new)
      fail("Cannot specify both new=true and remove=true; 'remove' always returns the deleted document");
    if (args.arrayFilters) fail('Cannot specify arrayFilters and remove=true');
  }
  if (kind === 'pipeline' && args.arrayFilters) fail('Cannot specify arrayFilters and a pipeline update');
  if (kind !== undefined) checkUpdate(args.update);
}

/**
 * findAndModify: returns `{ value, lastErrorObject }`.
 * @throws CommandError (duplicates surface as a command error with code 11000).
 */
export function findAndModify(
  engine: Engine,
  coll: Collection,
  txn: Transaction | undefined,
  args: FindAndModifyArgs,
): Doc {
  checkFindAndModify(args);
  checkArrayFilters(args.update, args.arrayFilters);
  checkFields(args);
  const state = engine.readState(coll, txn);
  const found = runQuery(state, {
    filter: args.query,
    sort: args.sort,
    limit: 1,
    collation: args.collation,
    variables: args.let,
  })[0];
  const target = found ? state.docs.get(keyOf(found['_id'])) : undefined;
  if (args.remove) {
    if (!target) return { lastErrorObject: { n: 0 }, value: null };
    const idKey = keyOf(target['_id']);
    engine.checkWrite(coll, idKey, txn);
    const value = project(target, args);
    remove(engine, coll, txn, idKey);
    return { lastErrorObject: { n: 1 }, value };
  }
  const filter = splitText(prepareFilter(args.query)).rest;
  if (!target) {
    if (!args.upsert) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null };
    const doc = buildUpsert(filter, args.update, {
      arrayFilters: args.arrayFilters,
      collation: args.collation,
      variables: args.let,
    });
    const value = args.new ? project(doc, args) : null;
    insertOne(engine, coll, txn, doc);
    return { lastErrorObject: { n: 1, updatedExisting: false, upserted: doc['_id'] }, value };
  }
  const idKey = keyOf(target['_id']);
  engine.checkWrite(coll, idKey, txn);
  const { doc, changed } = applyUpdate(target, args.update, {
    arrayFilters: args.arrayFilters,
    filter,
    collation: args.collation,
    variables: args.let,
  });
  const value = project(args.new ? doc : target, args);
  if (changed) {
    checkStorable(doc, 'update');
    put(engine, coll, txn, doc, idKey, updateKind(args.update) === 'replacement', args.update);
  }
  return { lastErrorObject: { n: 1, updatedExisting: true }, value };
}
