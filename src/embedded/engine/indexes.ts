/**
 * Secondary indexes: key generation (compound, multikey, sparse, partial, collation), unique enforcement
 * and equality lookups. Every index keeps `key string → set of _id keys`; text indexes keep no entries.
 */
import type { Query } from 'mingo/query';
import { nonZeroNumber } from './arithmetic.js';
import type { Collation } from './collation.js';
import { describeCollation, normalizeCollation, sameCollation } from './collation.js';
import { bsonText } from './bson-text.js';
import { outsideText } from './proto-alias.js';
import { compile, prepareFilter } from './query.js';
import { hashedIndexKey } from './hashed-index-key.js';
import { hashedIndexKeys, indexKeys } from './index-keys.js';
import type { IndexKey } from './index-keys.js';
import { bsonTag, keyOf } from './values.js';
import { hasTextTerms } from './text.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** An index as createIndexes receives it and listIndexes reports it. */
export interface IndexSpec {
  name: string;
  key: Record<string, unknown>;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Doc;
  collation?: Collation;
  expireAfterSeconds?: number;
  weights?: Record<string, number>;
  default_language?: string;
  hidden?: boolean;
  /** Set by collMod: new duplicate keys are refused, existing ones stay (the step before `unique`). */
  prepareUnique?: boolean;
}

/** A live index: its spec plus its entries. */
export class Index {
  readonly spec: IndexSpec;
  readonly fields: string[];
  readonly text: boolean;
  /** Some field is `'hashed'`: the document has one key, and no array on any path (index-keys.ts). */
  readonly hashed: boolean;
  /** The position of the `'hashed'` field in the key pattern, or -1. */
  private readonly hashedAt: number;
  readonly entries: Map<string, Set<string>>;
  /** For compound indexes: first-field key → ids, so equality on the prefix field does not scan. */
  readonly prefix: Map<string, Set<string>> | undefined;
  /**
   * Some document has several keys. A compound key then pairs values as the key generator walks one
   * array (index-keys.ts), while a filter on two of its paths may take them from two elements, so
   * finds read only the first path's keys (as MongoDB's planner does not combine bounds on paths that
   * share a multikey array).
   */
  multikey = false;
  private readonly partial: Query | undefined;

  constructor(spec: IndexSpec, entries?: Map<string, Set<string>>) {
    this.spec = spec;
    this.text = Object.values(spec.key).includes('text');
    this.hashedAt = Object.values(spec.key).indexOf('hashed');
    this.hashed = this.hashedAt >= 0;
    this.fields = this.text ? Object.keys(spec.weights ?? {}) : Object.keys(spec.key);
    this.entries = entries ?? new Map<string, Set<string>>();
    if (!this.text && this.fields.length > 1) {
      this.prefix = new Map<string, Set<string>>();
      const seen = new Set<string>();
      let count = 0;
      for (const [key, ids] of this.entries) {
        count += ids.size;
        for (const id of ids) seen.add(id);
        const first = prefixOf(key);
        let set = this.prefix.get(first);
        if (!set) this.prefix.set(first, (set = new Set()));
        for (const id of ids) set.add(id);
      }
      this.multikey = count > seen.size;
    }
    this.partial = spec.partialFilterExpression
      ? compile(prepareFilter(spec.partialFilterExpression))
      : undefined;
  }

  /** A copy with its own entry sets (for copy-on-write snapshots). */
  clone(): Index {
    const entries = new Map<string, Set<string>>();
    for (const [k, ids] of this.entries) entries.set(k, new Set(ids));
    return new Index(this.spec, entries);
  }

  /**
   * True when the document belongs in this index at all: it passes the partial filter, and a sparse
   * index holds a key for it. A text index is always sparse: it holds the documents with a term.
   */
  covers(doc: Doc): boolean {
    if (this.partial && !this.partial.test(doc)) return false;
    if (this.text) return hasTextTerms(doc, this.fields);
    if (!this.spec.sparse) return true;
    return this.keysOf(doc).length > 0;
  }

  /**
   * The part of a key string for `value` at `position` in the key pattern (`keyValue`). A hashed field
   * holds the value's hash (hashed-index-key.ts), as MongoDB's hashed indexes do: values sharing a hash
   * (2 and 2.5, or a collision) share an entry, so a lookup finds both and the filter tells them apart.
   */
  keyPart(position: number, value: unknown): string {
    const held = this.keyValue(position, value);
    return '\u0001' + (held === undefined ? 'u' : keyOf(held, this.spec.collation));
  }

  /** The value the index holds for `value` at `position` in the key pattern: its hash for a hashed field. */
  keyValue(position: number, value: unknown): unknown {
    return position === this.hashedAt ? hashedIndexKey(value, this.spec.collation) : value;
  }

  /**
   * The key strings of a document (`keyPart`s) paired with the key values (for error messages), as
   * index-keys.ts generates them.
   * @throws CommandError CannotIndexParallelArrays (171), 16746, or 16766 for an array in a hashed
   *   index (index-keys.ts).
   */
  keysOf(doc: Doc): IndexKey[] {
    if (this.text || (this.partial && !this.partial.test(doc))) return [];
    const keyString = (values: unknown[]): string => values.map((v, i) => this.keyPart(i, v)).join('');
    const keys = this.hashed ? hashedIndexKeys : indexKeys;
    return keys(doc, this.fields, keyString, this.spec.sparse === true);
  }

  add(idKey: string, keys: { key: string }[]): void {
    if (keys.length > 1) this.multikey = true;
    for (const { key } of keys) {
      let set = this.entries.get(key);
      if (!set) this.entries.set(key, (set = new Set()));
      set.add(idKey);
      if (this.prefix) {
        const first = prefixOf(key);
        let p = this.prefix.get(first);
        if (!p) this.prefix.set(first, (p = new Set()));
        p.add(idKey);
      }
    }
  }

  remove(idKey: string, keys: { key: string }[]): void {
    for (const { key } of keys) {
      const set = this.entries.get(key);
      if (!set) continue;
      set.delete(idKey);
      if (set.size === 0) this.entries.delete(key);
    }
    if (this.prefix) {
      for (const { key } of keys) {
        const first = prefixOf(key);
        // Another key of the same document may share the prefix (multikey on a later field).
        if (
          keys.some((k) => k.key !== key && prefixOf(k.key) === first && this.entries.get(k.key)?.has(idKey))
        )
          continue;
        const p = this.prefix.get(first);
        p?.delete(idKey);
        if (p && p.size === 0) this.prefix.delete(first);
      }
    }
  }

  /** The id key of another document holding `key` in this unique index, if any. */
  conflict(idKey: string, key: string): string | undefined {
    const set = this.entries.get(key);
    if (!set) return undefined;
    for (const other of set) if (other !== idKey) return other;
    return undefined;
  }

  /** The listIndexes form. */
  describe(): Doc {
    const s = this.spec;
    const out: Doc = { v: 2, key: s.key, name: s.name };
    if (this.text) {
      out['key'] = { _fts: 'text', _ftsx: 1 };
      out['weights'] = s.weights;
      out['default_language'] = s.default_language ?? 'english';
      out['language_override'] = 'language';
      out['textIndexVersion'] = 3;
    }
    if (s.unique) out['unique'] = true;
    if (s.sparse) out['sparse'] = true;
    if (s.partialFilterExpression) out['partialFilterExpression'] = s.partialFilterExpression;
    if (s.expireAfterSeconds !== undefined) out['expireAfterSeconds'] = s.expireAfterSeconds;
    if (s.collation) out['collation'] = describeCollation(s.collation);
    if (s.hidden) out['hidden'] = true;
    if (s.prepareUnique) out['prepareUnique'] = true;
    return out;
  }
}

/** The first-field part of a compound key string. */
function prefixOf(key: string): string {
  const second = key.indexOf('\u0001', 1);
  return second < 0 ? key : key.slice(0, second);
}

/** Default index name: `a_1_b_-1`. */
export function defaultIndexName(key: Record<string, unknown>): string {
  // Named as the client names the fields, so a hint or dropIndexes by that name finds it.
  return Object.entries(key)
    .map(([k, v]) => `${outsideText(k)}_${String(v)}`)
    .join('_');
}

/** A boolean index option as MongoDB reads it (`trueValue()`): `true`, or any non-zero number. */
function isSet(value: unknown): boolean {
  return typeof value === 'boolean' ? value : nonZeroNumber(value) === true;
}

/**
 * Validates and normalizes a createIndexes entry.
 * @throws CommandError BadValue / CannotCreateIndex (67) on bad specs; 31303 for two hashed fields,
 *   16764 for a unique hashed index.
 */
export function parseIndexSpec(raw: unknown): IndexSpec {
  if (!raw || typeof raw !== 'object')
    throw new CommandError(ErrorCodes.BadValue, 'index spec must be an object');
  const r = raw as Doc;
  const key = r['key'];
  if (!key || typeof key !== 'object' || Object.keys(key).length === 0) {
    throw new CommandError(ErrorCodes.CannotCreateIndex, 'index key pattern must be a non-empty object');
  }
  const keyDoc = key as Record<string, unknown>;
  for (const [field, dir] of Object.entries(keyDoc)) {
    const ok =
      dir === 1 || dir === -1 || dir === 'text' || dir === 'hashed' || dir === '2dsphere' || dir === '2d';
    const numeric = typeof dir === 'number' && dir !== 0;
    const long = bsonTag(dir) === 'Long' || bsonTag(dir) === 'Double' || bsonTag(dir) === 'Int32';
    if (!ok && !numeric && !long)
      throw new CommandError(
        ErrorCodes.CannotCreateIndex,
        `Values in the index key pattern can only be numbers or strings, bad field: ${field}`,
      );
  }
  const hashed = Object.values(keyDoc).filter((dir) => dir === 'hashed').length;
  if (hashed > 1) {
    // index_key_validate.cpp validateKeyPattern.
    throw new CommandError(
      31303,
      `A maximum of one index field is allowed to be hashed but found ${hashed} for 'key' ${bsonText(keyDoc)}`,
    );
  }
  const name = typeof r['name'] === 'string' ? r['name'] : defaultIndexName(keyDoc);
  const spec: IndexSpec = { name, key: keyDoc };
  if (isSet(r['unique'])) spec.unique = true;
  if (spec.unique && hashed > 0) {
    // Two values may share a hash (hash_access_method.cpp).
    throw new CommandError(
      16764,
      'Currently hashed indexes cannot guarantee uniqueness. Use a regular index.',
    );
  }
  if (isSet(r['sparse'])) spec.sparse = true;
  if (isSet(r['hidden'])) spec.hidden = true;
  if (isSet(r['prepareUnique'])) spec.prepareUnique = true;
  if (r['partialFilterExpression'] !== undefined) {
    if (typeof r['partialFilterExpression'] !== 'object')
      throw new CommandError(ErrorCodes.TypeMismatch, 'partialFilterExpression must be an object');
    spec.partialFilterExpression = r['partialFilterExpression'] as Doc;
  }
  const collation = normalizeCollation(r['collation']);
  if (collation) spec.collation = collation;
  if (r['expireAfterSeconds'] !== undefined) {
    const secs = Number(r['expireAfterSeconds']);
    if (!Number.isFinite(secs) || secs < 0)
      throw new CommandError(ErrorCodes.InvalidOptions, 'expireAfterSeconds must be a non-negative number');
    spec.expireAfterSeconds = secs;
  }
  if (Object.values(keyDoc).includes('text')) {
    const weights: Record<string, number> = {};
    for (const [f, v] of Object.entries(keyDoc)) if (v === 'text') weights[f] = 1;
    if (r['weights'] && typeof r['weights'] === 'object') {
      for (const [f, w] of Object.entries(r['weights'] as Doc)) weights[f] = Number(w);
    }
    spec.weights = weights;
    if (typeof r['default_language'] === 'string') spec.default_language = r['default_language'];
  }
  return spec;
}

/** True when two specs describe the same index (createIndexes is then a no-op). */
export function sameIndex(a: IndexSpec, b: IndexSpec): boolean {
  return (
    keyOf(a.key) === keyOf(b.key) &&
    !!a.unique === !!b.unique &&
    !!a.sparse === !!b.sparse &&
    keyOf(a.partialFilterExpression ?? null) === keyOf(b.partialFilterExpression ?? null) &&
    sameCollation(a.collation, b.collation) &&
    a.expireAfterSeconds === b.expireAfterSeconds
  );
}

/** An equality value an index lookup can serve (the values of an `$in`), or undefined. */
export function scalarEquality(value: unknown): unknown[] | undefined {
  const ok = (v: unknown): boolean =>
    v !== null &&
    v !== undefined &&
    !(v instanceof RegExp) &&
    !Array.isArray(v) &&
    (typeof v !== 'object' || v instanceof Date || bsonTag(v) === 'ObjectId' || bsonTag(v) === 'Binary');
  if (ok(value)) return [value];
  if (value && typeof value === 'object' && !Array.isArray(value) && bsonTag(value) === undefined) {
    const keys = Object.keys(value);
    if (keys.length !== 1) return undefined;
    const v = (value as Doc)[keys[0]!];
    if (keys[0] === '$eq' && ok(v)) return [v];
    if (keys[0] === '$in' && Array.isArray(v) && v.length > 0 && v.length <= 1000 && v.every(ok))
      return v as unknown[];
  }
  return undefined;
}

/** The index an equality lookup reads, and the id keys of its candidates. */
export interface IndexLookup {
  index: Index;
  ids: Set<string>;
}

/**
 * The index that serves the filter's top-level equalities with the fewest candidates, and those
 * candidates' id keys, or undefined when no index applies (the caller then scans). The candidates are a
 * superset: callers still test each document, which a hashed field needs, as its equality compares
 * hashes (values sharing one are all candidates).
 */
export function lookupIndex(
  indexes: readonly Index[],
  filter: Doc,
  collation: Collation | undefined,
): IndexLookup | undefined {
  let best: IndexLookup | undefined;
  for (const index of indexes) {
    if (index.text || index.spec.partialFilterExpression || index.spec.hidden) continue;
    const perField: unknown[][] = [];
    for (const field of index.fields) {
      const vals = field in filter ? scalarEquality(filter[field]) : undefined;
      if (!vals) break;
      if (
        vals.some((v) => typeof v === 'string') &&
        collation &&
        !sameCollation(collation, index.spec.collation)
      )
        break;
      perField.push(vals);
    }
    if (perField.length !== index.fields.length || index.multikey) {
      if (perField.length === 0 || !index.prefix) continue;
      const out = new Set<string>();
      for (const v of perField[0]!) for (const id of index.prefix.get(index.keyPart(0, v)) ?? []) out.add(id);
      if (!best || out.size < best.ids.size) best = { index, ids: out };
      continue;
    }
    let keys = [''];
    for (const [position, vals] of perField.entries()) {
      const next: string[] = [];
      for (const k of keys) for (const v of vals) next.push(k + index.keyPart(position, v));
      keys = next;
    }
    const out = new Set<string>();
    for (const k of keys) for (const id of index.entries.get(k) ?? []) out.add(id);
    if (!best || out.size < best.ids.size) best = { index, ids: out };
    if (best.ids.size === 0) return best;
  }
  return best;
}
