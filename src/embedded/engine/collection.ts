/**
 * One collection's data: documents keyed by canonical `_id`, plus its secondary indexes.
 * Documents are immutable once stored; every write swaps in a new object, so readers holding
 * references (cursors, snapshots) never see a change. A state may be pinned by snapshots, in which
 * case the owner copies it before writing (copy-on-write). A `Collection` holds the live state with
 * the collection's name, options and UUID.
 */
import { UUID } from 'bson';
import type { Collation } from './collation.js';
import { sameCollation } from './collation.js';
import { collatedDuplicateError, duplicateKeyError } from './duplicate-key.js';
import { Index } from './indexes.js';
import type { IndexSpec } from './indexes.js';
import { keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

/** Options a collection was created with. */
export interface CollectionOptions {
  collation?: Collation;
  capped?: boolean;
  validator?: Doc;
  [key: string]: unknown;
}

/** What storing one document changes in one index. */
interface KeyPlan {
  index: Index;
  oldKeys: { key: string }[];
  newKeys: { key: string; values: unknown[] }[];
}

/**
 * The record ids of a collection's documents, as MongoDB's storage engine gives each record a RecordId
 * (a long, for a collection that is not clustered): assigned on insert in increasing order, kept by
 * every update of the document, never given again after a delete (the last one given is kept).
 */
export class RecordIds {
  constructor(
    readonly ids = new Map<string, number>(),
    public last = 0,
  ) {}

  /** The record id of the document stored under `idKey` (0 for one this state does not hold). */
  of(idKey: string): number {
    return this.ids.get(idKey) ?? 0;
  }

  clone(): RecordIds {
    return new RecordIds(new Map(this.ids), this.last);
  }
}

/** Documents and indexes of a collection at one point in time. */
export class CollectionState {
  docs: Map<string, Doc>;
  indexes: Index[];
  /** Each document's record id, by `_id` key: index scans order equal keys by it. */
  readonly records: RecordIds;
  /** Number of snapshots holding this state: writers must copy first when > 0. */
  pins = 0;
  /**
   * The collation of the `_id` index (the collection's default), undefined for binary `_id`s, the
   * common case, which pays for nothing here. See {@link collateIds}.
   */
  private idCollation: Collation | undefined;
  /** Under `idCollation`: the `_id` key (`keyOf`) of the stored document for each collated `_id` key. */
  private collatedIds: Map<string, string> | undefined;

  /**
   * A state holding `docs` (numbered in their order when `records` is not given) and `indexes`. A state
   * derived for one read (a subset or reordering of another's documents) passes the other's `records`.
   */
  constructor(docs?: Map<string, Doc>, indexes?: Index[], records?: RecordIds) {
    this.docs = docs ?? new Map<string, Doc>();
    this.indexes = indexes ?? [];
    if (records) this.records = records;
    else {
      this.records = new RecordIds();
      for (const idKey of this.docs.keys()) this.records.ids.set(idKey, ++this.records.last);
    }
  }

  clone(): CollectionState {
    const copy = new CollectionState(
      new Map(this.docs),
      this.indexes.map((i) => i.clone()),
      this.records.clone(),
    );
    copy.idCollation = this.idCollation;
    if (this.collatedIds) copy.collatedIds = new Map(this.collatedIds);
    return copy;
  }

  /**
   * Holds the `_id`s unique under `collation`, a collection's default collation, which its `_id` index
   * inherits (SERVER-26514: "If "collation" is not present, the _id index inherits the collection
   * default collation"): from now on a document whose `_id` equals a stored one's under it is a
   * duplicate (`put`, `heldId`). Building the map reads every document once; later calls with a map
   * built are free. Does nothing for an undefined (binary) collation. Throws nothing.
   */
  collateIds(collation: Collation | undefined): void {
    if (!collation || this.collatedIds) return;
    this.idCollation = collation;
    this.collatedIds = new Map();
    for (const [idKey, doc] of this.docs) this.collatedIds.set(keyOf(doc['_id'], collation), idKey);
  }

  /**
   * The `_id` key of the stored document the `_id` index holds `id` equal to: binary, or under the
   * collation `collateIds` set. Undefined when none is stored. Throws nothing.
   */
  heldId(id: unknown): string | undefined {
    if (this.collatedIds) return this.collatedIds.get(keyOf(id, this.idCollation));
    const idKey = keyOf(id);
    return this.docs.has(idKey) ? idKey : undefined;
  }

  /** Index by name (`_id_` is virtual: it is the docs map). */
  index(name: string): Index | undefined {
    return this.indexes.find((i) => i.spec.name === name);
  }

  private duplicate(ns: string, index: Index, values: unknown[]): CommandError {
    const keyValue: Doc = {};
    // A key part is null for a missing path and undefined for an empty array (index-keys.ts).
    index.fields.forEach((f, i) => (keyValue[f] = values[i]));
    const { name, key, collation } = index.spec;
    if (collation) return collatedDuplicateError(ns, name, key, keyValue, collation);
    return duplicateKeyError(ns, name, key, keyValue);
  }

  /**
   * For a read comparing strings under `collation`: the `_id` of the stored document equal to `id` under
   * it (`[]` for none) when the `_id` index holds its strings under that collation (`collateIds`), else
   * undefined (the `_id` index cannot answer: the read scans). An array `id` is undefined too, as an
   * equality to an array also matches an element. Throws nothing.
   */
  heldIdUnder(id: unknown, collation: Collation): unknown[] | undefined {
    if (!this.collatedIds || Array.isArray(id) || !sameCollation(collation, this.idCollation))
      return undefined;
    const idKey = this.collatedIds.get(keyOf(id, this.idCollation));
    const doc = idKey === undefined ? undefined : this.docs.get(idKey);
    return doc ? [doc['_id']] : [];
  }

  /** The `_id` duplicate error (naming the `_id` index's collation, if it has one). */
  duplicateId(ns: string, id: unknown): CommandError {
    if (this.idCollation)
      return collatedDuplicateError(ns, '_id_', { _id: 1 }, { _id: id }, this.idCollation);
    return duplicateKeyError(ns, '_id_', { _id: 1 }, { _id: id });
  }

  /**
   * Stores a document (insert when `oldIdKey` is undefined, replace otherwise), enforcing unique indexes
   * before changing anything. With `setAside`, an index that refuses the document is dropped and passed
   * to it instead (loading data files, see load-indexes.ts).
   * @throws CommandError DuplicateKey (11000), CannotIndexParallelArrays (171) or 16746, without `setAside`.
   */
  put(ns: string, doc: Doc, oldIdKey?: string, setAside?: (index: Index, error: CommandError) => void): void {
    const idKey = keyOf(doc['_id']);
    if (oldIdKey === undefined && this.docs.has(idKey)) throw this.duplicateId(ns, doc['_id']);
    const collatedId = this.collatedIds ? keyOf(doc['_id'], this.idCollation) : undefined;
    if (collatedId !== undefined) {
      const held = this.collatedIds!.get(collatedId);
      if (held !== undefined && held !== oldIdKey) throw this.duplicateId(ns, doc['_id']);
    }
    const old = oldIdKey === undefined ? undefined : this.docs.get(oldIdKey);
    const plans: KeyPlan[] = [];
    for (const index of [...this.indexes]) {
      try {
        plans.push(this.plan(ns, index, idKey, doc, old));
      } catch (error) {
        if (!setAside || !(error instanceof CommandError)) throw error;
        this.indexes = this.indexes.filter((i) => i !== index);
        setAside(index, error);
      }
    }
    for (const { index, oldKeys, newKeys } of plans) {
      if (oldIdKey !== undefined) index.remove(oldIdKey, oldKeys);
      index.add(idKey, newKeys);
    }
    this.docs.set(idKey, doc);
    if (collatedId !== undefined) this.collatedIds!.set(collatedId, idKey);
    if (!this.records.ids.has(idKey)) this.records.ids.set(idKey, ++this.records.last);
  }

  /** The keys `doc` replaces and adds in `index`, checked against its unique constraint. */
  private plan(ns: string, index: Index, idKey: string, doc: Doc, old: Doc | undefined): KeyPlan {
    const newKeys = index.keysOf(doc);
    const oldKeys = old ? index.keysOf(old) : [];
    if (index.spec.unique || index.spec.prepareUnique) {
      for (const k of newKeys) {
        // A prepareUnique index keeps the duplicates it had: only keys new to the document are checked.
        if (!index.spec.unique && oldKeys.some((o) => o.key === k.key)) continue;
        if (index.conflict(idKey, k.key) !== undefined) throw this.duplicate(ns, index, k.values);
      }
    }
    return { index, oldKeys, newKeys };
  }

  /** Removes a document by id key; returns it. */
  remove(idKey: string): Doc | undefined {
    const old = this.docs.get(idKey);
    if (!old) return undefined;
    for (const index of this.indexes) index.remove(idKey, index.keysOf(old));
    this.docs.delete(idKey);
    if (this.collatedIds) {
      const collatedId = keyOf(old['_id'], this.idCollation);
      // Data stored before the `_id`s were collated may hold two documents under one collated key.
      if (this.collatedIds.get(collatedId) === idKey) this.collatedIds.delete(collatedId);
    }
    this.records.ids.delete(idKey);
    return old;
  }

  /**
   * Adds an index, building it over existing documents.
   * @throws CommandError DuplicateKey when existing documents violate a unique index.
   */
  addIndex(ns: string, spec: IndexSpec): void {
    const index = new Index(spec);
    for (const [idKey, doc] of this.docs) {
      const keys = index.keysOf(doc);
      if (spec.unique)
        for (const k of keys)
          if (index.conflict(idKey, k.key) !== undefined) throw this.duplicate(ns, index, k.values);
      index.add(idKey, keys);
    }
    this.indexes.push(index);
  }
}

/** A committed write's sequence number and the document it replaced or deleted (undefined: an insert). */
export interface Replaced {
  seq: number;
  idKey: string;
  prior: Doc | undefined;
}

/** A collection: its live state plus metadata. */
export class Collection {
  readonly db: string;
  name: string;
  readonly uuid = new UUID();
  readonly options: CollectionOptions;
  state: CollectionState;
  /** Global write sequence of the last committed write per `_id` key (conflict detection). */
  readonly writeSeq = new Map<string, number>();
  /**
   * Global write sequence when the collection appeared under its name (created, renamed to it, put
   * there by `$out`): a transaction that started before it may not write it (see Engine.checkWrite).
   */
  createdSeq = 0;
  /**
   * Global write sequence when the collection left its name (dropped, renamed away, replaced by `$out`)
   * while a reader that had not read it yet was open; Infinity while it is in the catalog. Such a
   * collection stays readable for those readers (transaction-snapshot.ts `retire`).
   */
  droppedSeq = Infinity;
  /**
   * The documents committed writes replaced, oldest first, kept while an open transaction that has not
   * read the collection yet may need the state from before them (transaction-snapshot.ts).
   */
  readonly replaced: Replaced[] = [];

  constructor(db: string, name: string, options: CollectionOptions = {}, state?: CollectionState) {
    this.db = db;
    this.name = name;
    this.options = options;
    this.state = state ?? new CollectionState();
    this.state.collateIds(options.collation);
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  /** The live state, copied first when snapshots pin it. */
  writable(): CollectionState {
    if (this.state.pins > 0) this.state = this.state.clone();
    // Options may be set after construction (a create replayed from the journal): a no-op once built.
    this.state.collateIds(this.options.collation);
    return this.state;
  }
}
