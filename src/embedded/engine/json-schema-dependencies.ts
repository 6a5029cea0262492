/**
 * The `$jsonSchema` keyword `dependencies` as MongoDB 7.0 parses it (`parseDependencies`,
 * `translateSchemaDependency` and `translatePropertyDependency` in `json_schema_parser.cpp`): a document
 * whose entries are either a schema (applied, at the same level, when the named field exists) or a
 * non-empty list of distinct field names (that must then exist too). A string entry named `title` or
 * `description` is let through as an annotation.
 */
import { bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** A property dependency: a non-empty list of distinct strings. */
function checkPropertyList(name: string, list: unknown[]): void {
  const where = `in $jsonSchema keyword 'dependencies'`;
  if (list.length === 0)
    throw new CommandError(ErrorCodes.FailedToParse, `property '${name}' ${where} cannot be an empty array`);
  const seen = new Set<string>();
  for (const entry of list) {
    if (typeof entry !== 'string')
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        `array '${name}' ${where} can only contain strings, but found element of type: ${bsonTypeName(entry)}`,
      );
    if (seen.has(entry))
      throw new CommandError(
        ErrorCodes.FailedToParse,
        `array '${name}' ${where} contains duplicate element: ${entry}`,
      );
    seen.add(entry);
  }
}

/**
 * Checks `dependencies` (`value`), handing each schema dependency to `checkSubschema` at `nested`.
 * @throws CommandError TypeMismatch (14) "$jsonSchema keyword 'dependencies' must be an object", "property
 *   'a' in $jsonSchema keyword 'dependencies' must be either an object or an array", "array 'a' in ... can
 *   only contain strings, but found element of type: int"; FailedToParse (9) for an empty or duplicated list;
 *   whatever `checkSubschema` throws.
 */
export function checkDependencies(
  value: unknown,
  nested: boolean,
  checkSubschema: (sub: Doc, nested: boolean) => void,
): void {
  if (!isPlainObject(value))
    throw new CommandError(ErrorCodes.TypeMismatch, "$jsonSchema keyword 'dependencies' must be an object");
  for (const [name, dependency] of Object.entries(value)) {
    if (isPlainObject(dependency)) checkSubschema(dependency, nested);
    else if (Array.isArray(dependency)) checkPropertyList(name, dependency as unknown[]);
    else if (!(typeof dependency === 'string' && (name === 'title' || name === 'description')))
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        `property '${name}' in $jsonSchema keyword 'dependencies' must be either an object or an array`,
      );
  }
}
