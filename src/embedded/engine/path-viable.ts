/**
 * The check that an update may create a field at a path of the stored document (PathNotViable). It
 * looks only at the document's shape along the path, not at any operator, so `$set`, `$inc`, `$push` …
 * and `$rename`'s destination all share it; that is why it is not in update-modifier.ts or rename.ts.
 */
import { elementText } from './bson-text.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * MongoDB refuses to create a field under a value that cannot hold it (a scalar, or an array with a
 * part that is not an index): PathNotViable (28), naming the deepest existing element on the path.
 */
export function checkViable(doc: Doc, path: string): void {
  const parts = path.split('.');
  let name = '';
  let cur: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    let next: unknown;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(part))
        throw new CommandError(
          ErrorCodes.PathNotViable,
          `Cannot create field '${part}' in element {${elementText(name, cur)}}`,
        );
      next = cur[Number(part)];
    } else if (isPlainObject(cur)) next = cur[part];
    else
      throw new CommandError(
        ErrorCodes.PathNotViable,
        `Cannot create field '${part}' in element {${elementText(name, cur)}}`,
      );
    if (next === undefined) return;
    name = part;
    cur = next;
  }
}
