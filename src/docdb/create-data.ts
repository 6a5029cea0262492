import { ObjectId, type Document } from 'mongodb';
import { isPlainObject } from '../adapter/index.js';
import { BadRequest } from '../errors/index.js';

/**
 * A copy of one record of `create` data, with a custom id field (`idField` other than `_id`) set to a
 * new ObjectId's hex string when the data has none. `_id` is left as given: the service assigns or
 * converts it. Throws `BadRequest` (400) for data that is not an object.
 */
export function newRecord(item: unknown, idField: string): Document {
  if (!isPlainObject(item)) throw new BadRequest('The data of create must be an object');
  const doc: Document = { ...item };
  if (idField !== '_id' && (doc[idField] === undefined || doc[idField] === null)) {
    doc[idField] = new ObjectId().toHexString();
  }
  return doc;
}
