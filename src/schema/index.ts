/**
 * `plume/schema`: AJV + TypeBox helpers (spec: SEED.md "Object ids", "Adapter query syntax", "Dates";
 * REFERENCE-feathers §2.5 converters and §2.6 schema behaviour).
 *
 * - `createQueryValidator()` (also `createValidator()`) / `createDataValidator()` / `getValidator(schema, ajv)`:
 *   AJV for queries (with coercion) and for data (without), both with defaults, formats and the
 *   `objectid` keyword; validators that throw `BadRequest` (400) with AJV's errors in `errors`.
 * - `keywordObjectId`, `ObjectIdSchema()`, `resolveObjectId`, `resolveQueryObjectId`: object ids.
 * - `querySyntax(properties, extensions?)`: the schema of a service query.
 * - `resolve`, `virtual`: property resolvers.
 * - Hooks (around or regular): `validateQuery`, `validateData`, `resolveQuery`, `resolveData`, `resolveResult`,
 *   `resolveExternal`.
 *
 * Dates: SEED.md recommends storing UTC millisecond timestamps; describe them as
 * `Type.Integer({ minimum: 0 })` (or `Type.Number()`), which `querySyntax` turns into range queries
 * (`?createdAt[$gte]=1700000000000` is coerced to a number).
 * @packageDocumentation
 */
export { Type, type Static, type TSchema, type TObject, type TProperties } from '@sinclair/typebox';
export type { Ajv, ErrorObject, Options as AjvOptions } from 'ajv';
export { keywordObjectId, isObjectIdLike, isObjectIdString } from './object-id-keyword.js';
export { ObjectIdSchema } from './object-id-schema.js';
export { resolveObjectId, resolveQueryObjectId } from './object-id-resolvers.js';
export {
  queryProperty,
  querySyntax,
  type QueryExtensions,
  type QueryProperties,
  type QueryProperty,
  type QuerySyntax,
} from './query-syntax.js';
export {
  createDataValidator,
  createQueryValidator,
  createValidator,
  getValidator,
  toValidationError,
  type Validator,
} from './validator.js';
export {
  isVirtual,
  resolve,
  virtual,
  type PropertyResolver,
  type PropertyResolvers,
  type Resolver,
  type ResolverOptions,
} from './resolver.js';
export type { SchemaHook } from './hook-function.js';
export {
  VALIDATED,
  isValidated,
  validateData,
  validateQuery,
  type DataValidators,
} from './validation-hooks.js';
export {
  resolveData,
  resolveExternal,
  resolveQuery,
  resolveResult,
  type AnyResolver,
  type DataResolvers,
} from './resolver-hooks.js';
