/**
 * `$rename`'s checks on the stored document (`RenameNode::apply`): the source path must be traversable
 * (no scalar, and only indexes into arrays, on the way: PathNotViable, 28), and neither the source nor
 * the destination may sit inside an array (BadValue). mingo's `$rename` moves fields through arrays
 * instead, so these run before it does.
 */
import { elementText } from './bson-text.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The values along `path` in `doc` (shorter when the path stops), with their field names. */
function walk(doc: Doc, path: string, from: boolean): { name: string; value: unknown }[] {
  const parts = path.split('.');
  const out: { name: string; value: unknown }[] = [];
  let cur: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    let next: unknown;
    if (Array.isArray(cur) && /^\d+$/.test(part)) next = cur[Number(part)];
    else if (isPlainObject(cur)) next = cur[part];
    else if (from && i > 0 && cur !== null) {
      // MongoDB: "cannot use the part (v of v.foo) to traverse the element ({v: [ … ]})".
      const previous = out[out.length - 1]!;
      throw new CommandError(
        ErrorCodes.PathNotViable,
        `cannot use the part (${previous.name} of ${path}) to traverse the element ({${elementText(previous.name, previous.value)}})`,
      );
    } else return out;
    if (next === undefined) return out;
    out.push({ name: part, value: next });
    cur = next;
  }
  return out;
}

function insideArray(doc: Doc, steps: { name: string; value: unknown }[], path: string, side: string): void {
  const array = steps.slice(0, -1).find((s) => Array.isArray(s.value));
  if (!array) return;
  throw new CommandError(
    ErrorCodes.BadValue,
    `The ${side} field cannot be an array element, '${path}' in doc with ${elementText('_id', doc['_id'])} has an array field called '${array.name}'`,
  );
}

/**
 * MongoDB's checks on `{$rename: {from: to}}` against `doc`.
 * @throws CommandError PathNotViable (28) or BadValue (2).
 */
export function checkRename(doc: Doc, from: string, to: string): void {
  const source = walk(doc, from, true);
  if (source.length !== from.split('.').length) return; // nothing to rename
  insideArray(doc, source, from, 'source');
  // The destination's ancestors, and the deepest existing element when the path has yet to be created.
  const target = walk(doc, to, false);
  const full = target.length === to.split('.').length;
  insideArray(doc, full ? target : [...target, { name: '', value: undefined }], to, 'destination');
}
