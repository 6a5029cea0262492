import { Type, type TUnsafe } from '@sinclair/typebox';
import type { ObjectId } from 'mongodb';

/**
 * A schema for an object id property (spec: SEED.md "Object ids"): accepts an `ObjectId` or a string
 * of 24 hexadecimal characters, which validation converts to an `ObjectId` in place.
 *
 * It relies on the `objectid` keyword (`keywordObjectId`): it works only with a validator where that
 * keyword is registered (`createValidator()` registers it). Compiling it with an AJV instance without
 * the keyword fails with AJV's `unknown keyword: "objectid"` error (strict mode), so a missing keyword
 * is noticed at start-up instead of letting any string or object through.
 *
 * The JSON form is `{ anyOf: [{ type: 'string', objectid: true }, { type: 'object', objectid: true }] }`,
 * so schema readers (e.g. OpenAPI) see "string or object".
 */
export function ObjectIdSchema(options: Record<string, unknown> = {}): TUnsafe<ObjectId | string> {
  return Type.Unsafe<ObjectId | string>({
    ...options,
    anyOf: [
      { type: 'string', objectid: true },
      { type: 'object', objectid: true },
    ],
  });
}
