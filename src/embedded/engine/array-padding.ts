/**
 * MongoDB's cap on how far an update may extend an array by index. Setting `arr.N` past the end of
 * `arr` pads it with nulls up to N, and MongoDB refuses to add more than 1,500,000 of them
 * (`kMaxPaddingAllowed`, src/mongo/db/update/path_support.h; `maybePadTo` in path_support.cpp) before
 * it adds any. Every update operator that can create a path shares this check (it looks only at the
 * stored document's shape), so it is kept apart from the operators; it must run before mingo, which
 * would spend seconds and hundreds of megabytes building the padded array.
 */
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

/** The most nulls one update may add to an array (MongoDB's `kMaxPaddingAllowed`). */
export const MAX_ARRAY_PADDING = 1_500_000;

/** CannotBackfillArray (34): not in the shared code table, so its name is set here. */
class CannotBackfillArray extends CommandError {
  override readonly codeName = 'CannotBackfillArray';
}

/**
 * Refuses a path whose creation in `doc` would pad an existing array with more than 1,500,000 nulls:
 * the first part of `path` that `doc` lacks is an index `N` into an array of length `L` with
 * `N - L > 1,500,000`. Parts after that are created as objects, so only that first missing part can
 * pad. Paths MongoDB cannot create at all (a name into an array, a field under a scalar) are left to
 * the PathNotViable check.
 * @param doc the stored document (not changed)
 * @param path a concrete update path (positional operators already resolved)
 * @throws CommandError CannotBackfillArray (34), "can't backfill more than 1500000 elements".
 */
export function checkArrayPadding(doc: Doc, path: string): void {
  let current: unknown = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(part)) return;
      const index = Number(part);
      if (index < current.length) {
        current = current[index];
        continue;
      }
      if (index - current.length > MAX_ARRAY_PADDING) {
        throw new CannotBackfillArray(34, `can't backfill more than ${MAX_ARRAY_PADDING} elements`);
      }
      return;
    }
    if (!isPlainObject(current)) return;
    current = current[part];
    if (current === undefined) return;
  }
}
