import type { ErrorObject, FuncKeywordDefinition } from 'ajv';
import { ObjectId } from 'mongodb';

/** Where AJV passes the value's container, so a modifying keyword can replace the value. */
interface DataContext {
  parentData?: unknown;
  parentDataProperty: string | number;
}

const HEX_24 = /^[0-9a-fA-F]{24}$/;

/**
 * True for an `ObjectId` of this driver and for copies from another `bson` version (`_bsontype`
 * `'ObjectId'`), which are accepted as they are.
 */
export function isObjectIdLike(value: unknown): boolean {
  if (value instanceof ObjectId) return true;
  return (
    typeof value === 'object' && value !== null && (value as { _bsontype?: unknown })._bsontype === 'ObjectId'
  );
}

/** True for a string of exactly 24 hexadecimal characters (12-character strings are not ids here). */
export function isObjectIdString(value: unknown): value is string {
  return typeof value === 'string' && HEX_24.test(value);
}

function invalid(value: unknown): Partial<ErrorObject> {
  const shown = typeof value === 'string' ? `'${value}'` : typeof value;
  return {
    keyword: 'objectid',
    message: `must be an ObjectId or a string of 24 hexadecimal characters (got ${shown})`,
    params: { value: typeof value === 'string' ? value : typeof value },
  };
}

/**
 * The AJV keyword `objectid` (spec: SEED.md "Object ids"; REFERENCE-feathers §2.5).
 * Register it with `ajv.addKeyword(keywordObjectId)` (`createValidator()` does it for you), then use
 * `{ objectid: true }` in a schema (or `ObjectIdSchema()`).
 *
 * - A string of 24 hexadecimal characters passes and is replaced in place by an `ObjectId`
 *   (`parentData[parentDataProperty]`; a value at the schema root cannot be replaced and stays a string).
 * - An existing `ObjectId`, or a copy from another `bson` version, passes unchanged.
 * - Anything else (other strings, numbers, objects) fails with a validation error (keyword `objectid`);
 *   the keyword never throws from inside AJV.
 * - `{ objectid: false }` checks nothing.
 */
export const keywordObjectId: FuncKeywordDefinition = {
  keyword: 'objectid',
  modifying: true,
  errors: true,
  schemaType: 'boolean',
  compile(enabled: boolean) {
    const validate = (data: unknown, dataCxt?: DataContext): boolean => {
      if (!enabled) return true;
      if (isObjectIdLike(data)) return true;
      if (isObjectIdString(data)) {
        if (dataCxt !== undefined && dataCxt.parentData !== undefined) {
          (dataCxt.parentData as Record<string | number, unknown>)[dataCxt.parentDataProperty] = new ObjectId(
            data,
          );
        }
        return true;
      }
      // AJV fills in instancePath and schemaPath for keyword errors that leave them out.
      validate.errors = [invalid(data)];
      return false;
    };
    validate.errors = undefined as Partial<ErrorObject>[] | undefined;
    return validate;
  },
};
