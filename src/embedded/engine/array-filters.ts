/**
 * An update's `arrayFilters`, checked as MongoDB 7.0 parses them before it reads any document
 * (parsed_update_array_filters.cpp, with ExpressionWithPlaceholder::make,
 * src/mongo/db/matcher/expression_with_placeholder.cpp), and against the update's `$[identifier]`
 * paths (UpdateObjectNode::parseAndMerge's parseArrayFilterIdentifier; UpdateDriver::parse for an unused
 * filter). Each filter is over one identifier, the first part of its paths: `{ 'x.a': 1 }` and
 * `{ $or: [{ 'x.a': 1 }, { x: 2 }] }` are over `x`.
 */
import { bsonText } from './bson-text.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The identifiers an `$[identifier]` may name (ExpressionWithPlaceholder's placeholderRegex). */
const IDENTIFIER = /^[a-z][a-zA-Z0-9]*$/;

const LOGICAL = new Set(['$and', '$or', '$nor']);

/**
 * The identifier an array filter is over: the first part of each path in it, looking into `$and`, `$or`
 * and `$nor` (parseTopLevelFieldName); undefined when it has no path (`{ $expr: … }`, `{}`).
 * @throws CommandError FailedToParse (9) when its paths start with two names.
 */
export function arrayFilterName(filter: Doc): string | undefined {
  let name: string | undefined;
  const meet = (found: string | undefined): void => {
    if (found === undefined || found === name) return;
    if (name === undefined) name = found;
    else
      throw new CommandError(
        ErrorCodes.FailedToParse,
        `Error parsing array filter :: caused by :: Expected a single top-level field name, found '${name}' and '${found}'`,
      );
  };
  for (const [key, value] of Object.entries(filter)) {
    if (LOGICAL.has(key) && Array.isArray(value)) {
      for (const clause of value) if (isPlainObject(clause)) meet(arrayFilterName(clause));
    } else if (!key.startsWith('$')) meet(key.split('.')[0]);
  }
  return name;
}

/** The `$[identifier]` identifiers of one update path (whole parts only), `$[]` left out. */
const identifiersOf = (path: string): string[] =>
  path
    .split('.')
    .filter((part) => part.startsWith('$[') && part.endsWith(']') && part.length > 3)
    .map((part) => part.slice(2, -1));

/**
 * Checks an update's `arrayFilters` and its `$[identifier]` paths before any document is read.
 * @throws CommandError, in MongoDB's order: for a filter, FailedToParse (9) "Expected a single top-level
 * field name" or "Cannot use an expression without a top-level field name in arrayFilters", BadValue (2)
 * "The top-level field name must be an alphanumeric string beginning with a lowercase letter", or
 * FailedToParse "Found multiple array filters with the same top-level field name"; then BadValue "No
 * array filter found for identifier 'x' in path 'a.$[x]'" for a path naming no filter; then
 * FailedToParse "The array filter for identifier 'j' was not used in the update …".
 */
export function checkArrayFilters(update: unknown, arrayFilters: Doc[] | undefined): void {
  const names = new Set<string>();
  for (const filter of arrayFilters ?? []) {
    const name = arrayFilterName(filter);
    if (name === undefined)
      throw new CommandError(
        ErrorCodes.FailedToParse,
        'Cannot use an expression without a top-level field name in arrayFilters',
      );
    if (!IDENTIFIER.test(name))
      throw new CommandError(
        ErrorCodes.BadValue,
        `Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '${name}'`,
      );
    if (names.has(name))
      throw new CommandError(
        ErrorCodes.FailedToParse,
        `Found multiple array filters with the same top-level field name ${name}`,
      );
    names.add(name);
  }
  if (!isPlainObject(update) || !Object.keys(update)[0]?.startsWith('$')) return;
  const used = new Set<string>();
  for (const fields of Object.values(update)) {
    if (!isPlainObject(fields)) continue;
    for (const path of Object.keys(fields)) {
      for (const identifier of identifiersOf(path)) {
        if (!names.has(identifier))
          throw new CommandError(
            ErrorCodes.BadValue,
            `No array filter found for identifier '${identifier}' in path '${path}'`,
          );
        used.add(identifier);
      }
    }
  }
  for (const name of names) {
    if (!used.has(name))
      throw new CommandError(
        ErrorCodes.FailedToParse,
        // update_driver.cpp prints the update as a BSONObj (bsonText), not as JSON.
        `The array filter for identifier '${name}' was not used in the update ${bsonText(update)}`,
      );
  }
}
