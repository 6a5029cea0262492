/**
 * The `$set` writes mingo skips. mingo's `$set` leaves a field alone when its `isEqual` calls the old and
 * new values equal, and `isEqual` ignores the order of a document's fields, the type of a number and
 * the sign of zero. MongoDB's SetNode (src/mongo/db/update/set_node.cpp) writes unless the two are the
 * same BSON (`binaryEqualValues`), so a document with its fields in another order, NumberLong(1) over
 * the int 1, or -0.0 over 0 is written and counted in nModified.
 */
import { sameBson } from './update-delta-tree.js';
import { cloneValue, isPlainObject } from './values.js';
import type { Doc } from './values.js';

/**
 * Writes each value of `set` (a `$set` modifier of concrete paths, after mingo applied it to `doc`)
 * where `doc` does not hold that same BSON value, in place of the one mingo kept; the field stays where
 * it is. Paths mingo did not reach (nothing there to keep) are left alone.
 */
export function writeSkippedSets(doc: Doc, set: unknown): void {
  if (!isPlainObject(set)) return;
  for (const [path, value] of Object.entries(set)) {
    if (value === undefined) continue;
    const parts = path.split('.');
    const last = parts.pop()!;
    let holder: unknown = doc;
    for (const part of parts) holder = (holder as Record<string, unknown> | null)?.[part];
    if (holder === null || typeof holder !== 'object' || !Object.hasOwn(holder, last)) continue;
    const fields = holder as Record<string, unknown>;
    if (!sameBson(fields[last], value)) fields[last] = cloneValue(value);
  }
}
