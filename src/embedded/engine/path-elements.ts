/**
 * The values a dotted path reaches in a document as `distinct` reads them: MongoDB 7.0's
 * dotted_path_support::extractAllElementsAlongPath with arrays at the end expanded
 * (src/mongo/db/bson/dotted_path_support.cpp; src/mongo/db/commands/distinct.cpp calls it on each
 * document). Unlike an index key (index-keys.ts) it goes through every array it meets:
 *
 * - the rest of the path is first looked up whole as one field name (`{ 'b.c': 1 }` answers `'b.c'`);
 * - an array at the end gives each of its elements, an array nested in it whole, an empty array nothing;
 * - an array before the end is entered by position when the next part is all digits (`'a.0'`, `'a.0.b'`:
 *   only the element at that position, nothing when there is none), else through each element that is a
 *   document or an array, with the rest of the path (so a nested array is entered only by position);
 * - a path that reaches nothing or stops at a scalar gives nothing.
 */
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/** The field `name` of a document, or of an array read as the document `{ 0: …, 1: … }`. */
function field(container: Doc | unknown[], name: string): { found: boolean; value?: unknown } {
  if (Array.isArray(container)) {
    if (!/^(0|[1-9]\d*)$/.test(name) || Number(name) >= container.length) return { found: false };
    return { found: true, value: container[Number(name)] };
  }
  if (!Object.hasOwn(container, name)) return { found: false };
  return { found: true, value: container[name] };
}

/**
 * Every value `path` reaches in `container` (see the file comment), appended to `out` in document order,
 * repeats kept.
 */
export function elementsAlongPath(container: Doc | unknown[], path: string, out: unknown[] = []): unknown[] {
  const whole = field(container, path);
  if (whole.found) {
    if (Array.isArray(whole.value)) out.push(...(whole.value as unknown[]));
    else out.push(whole.value);
    return out;
  }
  const dot = path.indexOf('.');
  if (dot < 0) return out;
  const left = field(container, path.slice(0, dot));
  const rest = path.slice(dot + 1);
  if (isPlainObject(left.value)) {
    elementsAlongPath(left.value, rest, out);
  } else if (Array.isArray(left.value)) {
    if (/^\d+(\.|$)/.test(rest)) elementsAlongPath(left.value, rest, out);
    else {
      for (const element of left.value as unknown[])
        if (isPlainObject(element) || Array.isArray(element)) elementsAlongPath(element, rest, out);
    }
  }
  return out;
}
