/**
 * The `$v: 2` delta MongoDB 7.0 logs for a pipeline update, which names no paths: the update driver
 * diffs the documents (pipeline_executor.cpp calls doc_diff::computeOplogDiff, document_diff_calculator.cpp).
 * Fields are compared in order: same name, a different value is updated, or diffed inside when both
 * are documents or both arrays; a field missing at its place is deleted (or, when it comes back
 * further on, inserted with its whole value); fields left over in the new document are inserted. Arrays
 * are compared element by element, new elements logged by index and a shorter array as its new size.
 * Any sub-diff that grows as large as the value it describes is dropped for the whole value, and when
 * the whole diff would be as large as the new document, the update is logged as a replacement (so the
 * change event is `replace`). Sizes are counted as document_diff_serialization.h's builders count them.
 */
import { BSON } from 'bson';
import type { ArrayDelta, Delta, DocDelta } from './update-delta-tree.js';
import { containerKind, emptyDocDelta, sameBson } from './update-delta-tree.js';
import type { Doc } from './values.js';

/** update_oplog_entry::kSizeOfDeltaOplogEntryMetadata: `$v` and `diff` around the delta. */
const DELTA_METADATA = 15;
/** kSizeOfEmptyDocumentDiffBuilder and kSizeOfEmptyArrayDiffBuilder. */
const EMPTY_DOC_DIFF = 5;
const EMPTY_ARRAY_DIFF = 9;
/** What the builders add for the first entry of a section (the section's own field and object). */
const SECTION = 8;

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
/** BSON size of a value without its type byte and field name (BSONElement::valuesize). */
const valueSize = (value: unknown): number => BSON.calculateObjectSize({ '': value }) - 7;
/** BSON size of one element. */
const element = (name: string, size: number): number => 2 + bytes(name) + size;

interface Sized<T> {
  delta: T;
  /** The size the builder tracked for it. */
  size: number;
}

/**
 * The delta MongoDB 7.0 logs for a pipeline update that turned `before` into `after`, or undefined
 * when it logs the update as a replacement instead.
 */
export function pipelineDelta(before: Doc, after: Doc): DocDelta | undefined {
  const diff = docDiff(before, after, DELTA_METADATA);
  if (!diff || serializedSize(diff.delta) >= BSON.calculateObjectSize(after)) return undefined;
  return diff.delta;
}

/** computeDocDiff: undefined when the diff is not smaller than `post`. */
function docDiff(pre: Doc, post: Doc, padding: number): Sized<DocDelta> | undefined {
  const delta = emptyDocDelta();
  let size = EMPTY_DOC_DIFF + padding;
  const track = (field: string, value: number, section: unknown[]): void => {
    size += bytes(field) + value + 2 + (section.length === 0 ? SECTION : 0);
  };
  const update = (field: string, value: unknown): void => {
    track(field, valueSize(value), delta.updates);
    delta.updates.push([field, value]);
  };
  const remove = (field: string): void => {
    track(field, 1, delta.deletes);
    delta.deletes.push(field);
  };
  const olds = Object.entries(pre);
  const news = Object.entries(post);
  const moved = new Set<string>();
  let i = 0;
  let j = 0;
  while (i < olds.length && j < news.length) {
    const [oldName, oldValue] = olds[i]!;
    const [newName, newValue] = news[j]!;
    if (oldName !== newName) {
      // Deleted unless it comes back further on, as an insert.
      moved.add(oldName);
      i++;
      continue;
    }
    if (!sameBson(oldValue, newValue)) {
      const sub = subDiff(oldValue, newValue);
      if (sub) {
        track(oldName, sub.size, delta.subs);
        delta.subs.push([oldName, sub.delta]);
      } else update(oldName, newValue);
    }
    i++;
    j++;
  }
  for (; i < olds.length; i++) remove(olds[i]![0]);
  for (; j < news.length; j++) {
    const [name, value] = news[j]!;
    track(name, valueSize(value), delta.inserts);
    delta.inserts.push([name, value]);
    moved.delete(name);
  }
  // A std::set: the names in byte order.
  for (const name of [...moved].sort()) remove(name);
  return BSON.calculateObjectSize(post) > size ? { delta, size } : undefined;
}

/** computeArrayDiff: undefined when the diff is not smaller than `post`. */
function arrayDiff(pre: unknown[], post: unknown[]): Sized<ArrayDelta> | undefined {
  const delta: ArrayDelta = { kind: 'array', entries: [] };
  let size = EMPTY_ARRAY_DIFF;
  const update = (index: number, value: unknown): void => {
    size += String(index).length + 1 + valueSize(value) + 2;
    delta.entries.push([index, { value }]);
  };
  const common = Math.min(pre.length, post.length);
  for (let i = 0; i < common; i++) {
    if (sameBson(pre[i], post[i])) continue;
    const sub = subDiff(pre[i], post[i]);
    if (sub) {
      size += String(i).length + 1 + sub.size + 2;
      delta.entries.push([i, { sub: sub.delta }]);
    } else update(i, post[i]);
  }
  for (let i = common; i < post.length; i++) update(i, post[i]);
  if (pre.length > post.length) {
    delta.newSize = post.length;
    size += 1 + 4 + 2;
  }
  return valueSize(post) > size ? { delta, size } : undefined;
}

/** The sub-diff of two documents or two arrays (undefined for other values, or when too large). */
function subDiff(old: unknown, now: unknown): Sized<Delta> | undefined {
  const kind = containerKind(old);
  if (kind === undefined || kind !== containerKind(now)) return undefined;
  return kind === 'doc' ? docDiff(old as Doc, now as Doc, 0) : arrayDiff(old as unknown[], now as unknown[]);
}

/** The BSON size of the serialized delta (`{d: …, u: …, i: …, s<field>: …}`). */
function serializedSize(delta: Delta): number {
  let size = 5;
  if (delta.kind === 'array') {
    size += element('a', 1);
    if (delta.newSize !== undefined) size += element('l', 4);
    for (const [index, entry] of delta.entries)
      size +=
        'sub' in entry
          ? element(`s${index}`, serializedSize(entry.sub))
          : element(`u${index}`, valueSize(entry.value));
    return size;
  }
  const section = (name: string, fields: [string, number][]): number =>
    fields.length === 0 ? 0 : element(name, 5 + fields.reduce((n, [f, v]) => n + element(f, v), 0));
  size += section(
    'd',
    delta.deletes.map((f) => [f, 1]),
  );
  size += section(
    'u',
    delta.updates.map(([f, v]) => [f, valueSize(v)]),
  );
  size += section(
    'i',
    delta.inserts.map(([f, v]) => [f, valueSize(v)]),
  );
  for (const [field, sub] of delta.subs) size += element(`s${field}`, serializedSize(sub));
  return size;
}
