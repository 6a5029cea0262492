/**
 * The `$v: 2` delta MongoDB 7.0 logs for an operator update (`$set`, `$inc`, `$push` …): each modifier
 * logs the path it names, not the fields that differ below it (modifier_node.cpp `logUpdate`,
 * v2_log_builder.cpp). So `$set: {a: {b: 1}}` is one updated field `a` whatever `a` held; a path the
 * update creates is logged at its first new component with the whole new value; `$unset` logs a deleted
 * field (or, on an array element, the `null` left there: unset_node.cpp); `$push` that only appends logs
 * each new element by index, any other `$push` the whole array (push_node.cpp); `$addToSet`, `$pop`,
 * `$pull`, `$pullAll` and the arithmetic operators log the whole new value. A modifier that changes nothing logs
 * nothing. Rather than hooking each operator, the delta is read from the documents before and after,
 * guided by the update's paths: only the paths the update names are logged, each by its operator's rule.
 */
import type { ArrayDelta, Delta, DocDelta } from './update-delta-tree.js';
import { containerKind, emptyDocDelta, isEmptyDelta, sameBson } from './update-delta-tree.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/** How an operator logs the path it names. */
type LogRule = 'value' | 'unset' | 'push';

interface Target {
  parts: string[];
  rule: LogRule;
  /** The operator's argument (for `$push`'s modifiers). */
  spec?: unknown;
}

/** One change at a path, before it is placed in a document or an array level. */
type Change =
  | { type: 'update'; value: unknown }
  | { type: 'insert'; value: unknown }
  | { type: 'delete' }
  | { type: 'sub'; sub: Delta };

// `$addToSet` keeps ModifierNode's rule in 7.0: AddToSetNode answers kNormalUpdate, so the whole array
// is logged (its addtoset_node_test.cpp expects `{u: {a: [0, 1]}}`); logging only the appended
// elements came after 7.0 (SERVER-72941, resolved in the 7.1 cycle).
const RULES: Record<string, LogRule> = {
  $unset: 'unset',
  $push: 'push',
};

/** `$`, `$[]` and `$[name]` stand for array elements (one, all, or those the array filter picks). */
const isPositional = (part: string): boolean => part === '$' || /^\$\[[^\]]*\]$/.test(part);

/**
 * The order in which MongoDB applies an update's fields at one level (update_object_node.cpp keeps
 * its children sorted with `pathsupport::cmpPathsAndArrayIndexes`: numbers by value, others bytewise).
 */
function applyOrder(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

function targetsOf(update: Doc): Target[] {
  const targets: Target[] = [];
  for (const [op, arg] of Object.entries(update)) {
    // `$setOnInsert` only applies when an upsert inserts, which is an insert event.
    if (op === '$setOnInsert' || !isPlainObject(arg)) continue;
    for (const [path, value] of Object.entries(arg)) {
      if (op === '$rename') {
        // RenameNode sets the destination and unsets the source.
        targets.push({ parts: path.split('.'), rule: 'unset' });
        if (typeof value === 'string') targets.push({ parts: value.split('.'), rule: 'value' });
      } else targets.push({ parts: path.split('.'), rule: RULES[op] ?? 'value', spec: value });
    }
  }
  return targets;
}

/**
 * The delta MongoDB 7.0 logs for the operator update `update` that turned `before` into `after`.
 */
export function modifierDelta(before: Doc, after: Doc, update: Doc): DocDelta {
  return walkDoc(before, after, targetsOf(update), 0);
}

/** `targets` grouped by their path part at `depth`, in first-seen order (one pass: updates may name thousands). */
function byPart(targets: Target[], depth: number): Map<string, Target[]> {
  const groups = new Map<string, Target[]>();
  for (const t of targets) {
    const part = t.parts[depth]!;
    const group = groups.get(part);
    if (group) group.push(t);
    else groups.set(part, [t]);
  }
  return groups;
}

function walkDoc(before: Doc, after: Doc, targets: Target[], depth: number): DocDelta {
  const delta = emptyDocDelta();
  const groups = byPart(targets, depth);
  const keys = [...groups.keys()].filter((k) => !isPositional(k));
  for (const key of keys.sort(applyOrder)) {
    const here = groups.get(key)!;
    const change = changeAt(own(before, key), own(after, key), here, depth);
    if (!change) continue;
    if (change.type === 'update') delta.updates.push([key, change.value]);
    else if (change.type === 'insert') delta.inserts.push([key, change.value]);
    else if (change.type === 'delete') delta.deletes.push(key);
    else delta.subs.push([key, change.sub]);
  }
  return delta;
}

/** A document's own field (not something inherited from Object.prototype, such as `constructor`). */
const own = (doc: Doc, key: string): unknown => (Object.hasOwn(doc, key) ? doc[key] : undefined);

function walkArray(before: unknown[], after: unknown[], targets: Target[], depth: number): ArrayDelta {
  const delta: ArrayDelta = { kind: 'array', entries: [] };
  const length = Math.max(before.length, after.length);
  const groups = byPart(targets, depth);
  const positional = targets.filter((t) => isPositional(t.parts[depth]!));
  for (let i = 0; i < length; i++) {
    const indexed = groups.get(String(i));
    // In the targets' order, as a filter of them would keep them.
    const here =
      positional.length === 0
        ? (indexed ?? [])
        : targets.filter((t) => t.parts[depth] === String(i) || isPositional(t.parts[depth]!));
    if (here.length === 0) continue;
    const change = changeAt(before[i], after[i], here, depth);
    // Elements created past the end are logged at their index; the nulls padding up to them are not.
    if (change?.type === 'sub') delta.entries.push([i, { sub: change.sub }]);
    else if (change?.type === 'update' || change?.type === 'insert')
      delta.entries.push([i, { value: change.value }]);
  }
  return delta;
}

/** What the targets reaching one field (or element) log there. */
function changeAt(old: unknown, now: unknown, targets: Target[], depth: number): Change | undefined {
  const leaf = targets.find((t) => t.parts.length === depth + 1);
  if (old === undefined) return now === undefined ? undefined : { type: 'insert', value: now };
  if (now === undefined) return { type: 'delete' };
  if (leaf) {
    if (sameBson(old, now)) return undefined;
    const from = appendedFrom(leaf, old, now);
    if (from === undefined) return { type: 'update', value: now };
    const entries = (now as unknown[])
      .slice(from)
      .map((value, j): ArrayDelta['entries'][number] => [from + j, { value }]);
    return { type: 'sub', sub: { kind: 'array', entries } };
  }
  const kind = containerKind(old);
  if (kind !== undefined && kind === containerKind(now)) {
    const deeper = targets.filter((t) => t.parts.length > depth + 1);
    const sub =
      kind === 'doc'
        ? walkDoc(old as Doc, now as Doc, deeper, depth + 1)
        : walkArray(old as unknown[], now as unknown[], deeper, depth + 1);
    return isEmptyDelta(sub) ? undefined : { type: 'sub', sub };
  }
  return sameBson(old, now) ? undefined : { type: 'update', value: now };
}

/**
 * Where the appended elements start when the operator only appended to the array (PushNode's
 * kArrayAppendUpdate: a non-empty array, no `$sort`, no `$position` within it, nothing sliced off).
 */
function appendedFrom(target: Target, old: unknown, now: unknown): number | undefined {
  if (target.rule !== 'push') return undefined;
  if (!Array.isArray(old) || !Array.isArray(now) || now.length <= old.length) return undefined;
  if (!old.every((v, i) => sameBson(v, now[i]))) return undefined;
  if (old.length === 0) return undefined;
  const spec = target.spec;
  if (isPlainObject(spec) && '$each' in spec) {
    if (spec['$sort'] !== undefined) return undefined;
    const position = spec['$position'];
    if (position !== undefined && !(toNumber(position) > old.length)) return undefined;
    const each = spec['$each'];
    if (!Array.isArray(each) || now.length !== old.length + each.length) return undefined;
  } else if (now.length !== old.length + 1) return undefined;
  return old.length;
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  const long = value as { toNumber?: () => number };
  return typeof long.toNumber === 'function' ? long.toNumber() : Number(value);
}
