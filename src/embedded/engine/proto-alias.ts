/**
 * A field named `__proto__` is an ordinary field to MongoDB, in documents and in paths (`'__proto__.a'`,
 * `'$x.__proto__'`). mingo refuses every path with such a part ("Accessing __proto__ is not allowed"),
 * and plain JS assignment of that key sets an object's prototype, so the engine never sees the name:
 * what arrives (decodeDocument: commands, data files, change history) names it {@link PROTO_ALIAS}, and
 * what leaves (serializeBson: replies, data files) names it `__proto__` again. The alias starts with a
 * lone surrogate, which no decoded BSON string holds, so it cannot meet a real name, and no path the
 * engine evaluates ever reads `Object.prototype`.
 *
 * Renamed on the way in: every field name, and each part of a path written as a string where a string
 * can be a path — a `$`-prefixed string in an expression (field paths and variables), `distinct`'s
 * `key`, `$count`, `$unset`, the targets of `$rename`, and the path options of `$lookup`, `$graphLookup`
 * and `$unwind`; the `field` of `$getField`, `$setField` and `$unsetField` (or `$getField`'s short form)
 * when it is exactly `__proto__`. A string that is data keeps its text, `'$__proto__'` included: the
 * documents of an insert, the values of an update's operators or replacement, a filter's values outside
 * `$expr`, `$literal`'s argument, and the documents of the data files (see {@link Mode}). On the way
 * out every name and string is renamed back.
 */
import { isPlainObject, setOwn } from './values.js';

/** The engine's name for a field named `__proto__` (12 bytes in BSON where the real name takes 9). */
export const PROTO_ALIAS = '\ud800__proto__';

const PROTO = '__proto__';
const PROTO_BYTES = Buffer.from(PROTO, 'latin1');

/** The options whose string values are paths, by the stage or operator they belong to. */
const PATH_OPTIONS: Record<string, readonly string[]> = {
  $lookup: ['localField', 'foreignField', 'as'],
  $graphLookup: ['connectFromField', 'connectToField', 'as'],
  $unwind: ['includeArrayIndex'],
};

/** The operators whose `field` option is one field name. */
const FIELD_OPERATORS = new Set(['$getField', '$setField', '$unsetField']);

/**
 * What BSON holds where the alias was serialized: its lone surrogate is written as U+FFFD's bytes.
 * A serialized document without these bytes has nothing to rename back (see `restoreOutgoing`).
 */
export const SERIALIZED_ALIAS = Buffer.from(PROTO_ALIAS, 'utf8');

/** `name` as the engine names that field. */
export function engineName(name: string): string {
  return name === PROTO ? PROTO_ALIAS : name;
}

/** A dotted path (after any leading `$`s) with each `__proto__` part renamed. */
function enginePath(path: string): string {
  if (!path.includes(PROTO)) return path;
  const dollars = /^\$*/.exec(path)![0];
  const parts = path.slice(dollars.length).split('.').map(engineName);
  return dollars + parts.join('.');
}

/**
 * How the strings of a part of a command (or of a data file's record) are read:
 * - `command`: the command's own options and records' bookkeeping: data, and each option below chooses
 *   its part's mode (at any depth, so that `updates[i].q` and a record's `changes[i].doc` are found);
 * - `expression`: pipelines, projections, `let`: a `$`-prefixed string is a field path or variable;
 * - `filter`: a filter's values are data, but `$expr` holds expressions;
 * - `update`: an update document, data but for `$rename`'s targets, which are paths;
 * - `data`: documents and values, read as they were written.
 */
type Mode = 'command' | 'expression' | 'filter' | 'update' | 'data';

/** The options of commands and records whose value is data, an update (or a pipeline), or a filter. */
const DATA_OPTIONS = new Set(['documents', 'doc', 'before', 'after', 'id']);
const UPDATE_OPTIONS = new Set(['u', 'update']);
const FILTER_OPTIONS = new Set([
  'filter',
  'q',
  'query',
  'arrayFilters',
  'validator',
  'partialFilterExpression',
]);
const EXPRESSION_OPTIONS = new Set(['pipeline', 'projection', 'fields', 'let']);

/** The stage and option of an expression that hold a filter. */
const EXPRESSION_FILTERS = new Set(['$match', 'restrictSearchWithMatch']);

/** The mode of the value of `key` in a part read in `mode`. */
function modeOf(key: string, value: unknown, mode: Mode): Mode {
  switch (mode) {
    case 'data':
      return 'data';
    case 'filter':
      return key === '$expr' ? 'expression' : 'filter';
    case 'update':
      return key === '$rename' ? 'expression' : 'data';
    case 'expression':
      if (key === '$literal') return 'data';
      return EXPRESSION_FILTERS.has(key) ? 'filter' : 'expression';
    default:
      if (DATA_OPTIONS.has(key)) return 'data';
      // An update pipeline holds expressions.
      if (UPDATE_OPTIONS.has(key)) return Array.isArray(value) ? 'expression' : 'update';
      if (FILTER_OPTIONS.has(key)) return 'filter';
      return EXPRESSION_OPTIONS.has(key) ? 'expression' : 'command';
  }
}

/**
 * How a string of an expression is read where it stands, `option` of an object that is the value of
 * `owner` (a root document has no owner): a path, one field name, or data.
 */
function stringKind(value: string, option: string, owner: string | undefined): 'path' | 'name' | 'data' {
  if (option === '$count' || option === '$unset' || owner === '$rename') return 'path';
  if (option === '$getField' || (option === 'field' && owner !== undefined && FIELD_OPERATORS.has(owner)))
    return 'name';
  if (owner !== undefined && PATH_OPTIONS[owner]?.includes(option)) return 'path';
  return value.startsWith('$') ? 'path' : 'data';
}

function incoming(value: unknown, mode: Mode, option: string, owner: string | undefined): unknown {
  if (typeof value === 'string') {
    if (mode !== 'expression' || !value.includes(PROTO)) return value;
    const kind = stringKind(value, option, owner);
    return kind === 'path' ? enginePath(value) : kind === 'name' ? engineName(value) : value;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = incoming(value[i], mode, option, owner);
    return value;
  }
  if (!isPlainObject(value)) return value;
  const inner = option === '' ? undefined : option;
  const keys = Object.keys(value);
  if (!keys.some((k) => k.includes(PROTO))) {
    for (const key of keys) value[key] = incoming(value[key], modeOf(key, value[key], mode), key, inner);
    return value;
  }
  // Renaming a key in place would move it last: a new object keeps the field order.
  const out: Record<string, unknown> = {};
  for (const key of keys)
    setOwn(out, enginePath(key), incoming(value[key], modeOf(key, value[key], mode), key, inner));
  return out;
}

/**
 * A freshly decoded document (a command, or a document of a command's sequence or data file) with
 * `__proto__` names and path parts renamed for the engine, changed in place where the field order
 * allows; `bytes` are its encoding, searched first so that most documents cost nothing more.
 */
export function aliasIncoming(doc: Record<string, unknown>, bytes: Uint8Array): Record<string, unknown> {
  if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(PROTO_BYTES) < 0) return doc;
  const out = incoming(doc, 'command', '', undefined) as Record<string, unknown>;
  if ('distinct' in out && typeof out['key'] === 'string') out['key'] = enginePath(out['key']);
  return out;
}

/** `text` with the engine's name for `__proto__` written as `__proto__` (for names made of field names). */
export function outsideText(text: string): string {
  return text.includes(PROTO_ALIAS) ? text.split(PROTO_ALIAS).join(PROTO) : text;
}

function restored(value: unknown): unknown {
  if (typeof value === 'string') return outsideText(value);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = restored(value[i]);
      if (next !== value[i]) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  let changed = false;
  const entries = Object.keys(value).map((key): [string, unknown] => {
    const name = restored(key) as string;
    const next = restored(value[key]);
    if (name !== key || next !== value[key]) changed = true;
    return [name, next];
  });
  if (!changed) return value;
  const out: Record<string, unknown> = {};
  for (const [name, next] of entries) setOwn(out, name, next);
  return out;
}

/**
 * `doc` as it leaves the engine: every alias named `__proto__` again (a copy where anything changed).
 * A walk of the whole document: call it only for one whose serialized bytes hold `SERIALIZED_ALIAS`.
 */
export function restoreOutgoing(doc: Record<string, unknown>): Record<string, unknown> {
  return restored(doc) as Record<string, unknown>;
}

/** Bytes the engine's name takes in BSON beyond `__proto__`'s: 12 against 9. */
const ALIAS_EXTRA = SERIALIZED_ALIAS.length - PROTO.length;

/** How many times the engine's name stands in `text`. */
function aliasesIn(text: string): number {
  let count = 0;
  for (let at = text.indexOf(PROTO_ALIAS); at >= 0; at = text.indexOf(PROTO_ALIAS, at + 1)) count++;
  return count;
}

/** The bytes the engine's names in `text` take in BSON beyond the `__proto__` MongoDB holds there. */
export function aliasExtraBytes(text: string): number {
  return ALIAS_EXTRA * aliasesIn(text);
}

/** How many times the engine's name stands in `value`'s field names and strings. */
function aliasCount(value: unknown): number {
  if (typeof value === 'string') return aliasesIn(value);
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + aliasCount(item), 0);
  if (!isPlainObject(value)) return 0;
  let count = 0;
  for (const key of Object.keys(value)) count += aliasesIn(key) + aliasCount(value[key]);
  return count;
}

/**
 * The BSON size of `doc` as MongoDB would hold it (every alias written `__proto__`), given its size
 * `engineSize` as the engine holds it, which is 3 bytes more for each alias. A walk of the whole
 * document: call it only where those bytes matter (a size past a limit).
 */
export function outsideSize(doc: Record<string, unknown>, engineSize: number): number {
  return engineSize - ALIAS_EXTRA * aliasCount(doc);
}
