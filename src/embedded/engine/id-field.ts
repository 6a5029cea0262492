/**
 * Whether an `_id` value may be stored, as MongoDB 7.0 decides on insert (storageValidIdField): not an
 * array, regex or undefined (InvalidIdField, 53), and, for an embedded document, no `$`-prefixed field
 * name at any depth, inside arrays too (DollarPrefixedFieldName, 52), except a DBRef's leading `$ref`
 * (a string), `$id` and optional `$db` (a string). Dotted and empty field names are allowed.
 */
import { bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The first `$`-prefixed field name MongoDB's storageValidEmbedded refuses in `value`, if any. */
function refusedDollarField(value: Doc | unknown[]): string | undefined {
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value);
  for (let i = 0; i < entries.length; i++) {
    let [name, child] = entries[i]!;
    if (name.startsWith('$')) {
      const dbRef = i === 0 && name === '$ref' && typeof child === 'string' && entries[1]?.[0] === '$id';
      if (!dbRef) return name;
      // `$ref` and `$id` are fine; the field after them may be `$db` (a string) and no other `$` name.
      i = 2;
      if (i >= entries.length) return undefined;
      [name, child] = entries[i]!;
      if (name === '$db' && typeof child === 'string') continue;
      if (name.startsWith('$')) return name;
    }
    if (Array.isArray(child) || isPlainObject(child)) {
      const found = refusedDollarField(child);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * Refuses an `_id` MongoDB would not store.
 * @throws CommandError InvalidIdField (53) or DollarPrefixedFieldName (52), with MongoDB's messages.
 */
export function checkIdField(id: unknown): void {
  const type = bsonTypeName(id);
  if (type === 'array' || type === 'regex' || type === 'undefined')
    throw new CommandError(ErrorCodes.InvalidIdField, `The '_id' value cannot be of type ${type}`);
  if (!isPlainObject(id)) return;
  const dollar = refusedDollarField(id);
  if (dollar !== undefined)
    throw new CommandError(
      ErrorCodes.DollarPrefixedFieldName,
      `_id fields may not contain '$'-prefixed fields: ${dollar} is not valid for storage.`,
    );
}
