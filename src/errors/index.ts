/**
 * `plume/errors`: the HTTP error classes and their JSON form (spec: "Errors").
 * @packageDocumentation
 */
export {
  PlumeError,
  isPlumeError,
  statusOf,
  type ErrorFields,
  type ErrorJSON,
  type ErrorMessage,
  type ErrorOptions,
} from './plume-error.js';
export * from './classes.js';
export { toPlumeError, fromJSON, isExposedClientError } from './convert.js';
