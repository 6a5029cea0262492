/**
 * The query features a `$pull` condition may not use. MongoDB parses each condition when it parses the
 * update (PullNode::init, src/mongo/db/update/pull_node.cpp), as a match expression with
 * `MatchExpressionParser::kBanAllSpecialFeatures`: `$expr`, `$jsonSchema`, `$where`, `$text` and the
 * geo-near operators are refused (pull_node_test.cpp: InitWithExprElemFails, InitWithJSONSchemaFails,
 * InitWithWhereFails, InitWithTextFails, InitWithGeoNearElemFails …), before any document is read, so the
 * error comes back even when nothing matches. The messages are the parser's
 * (src/mongo/db/matcher/expression_parser.cpp). mingo would run these conditions instead.
 */
import { DBREF_FIELDS } from './dbref-fields.js';
import { unknownTopLevelOperator } from './filter-check.js';
import { PATH_KEYWORDS, PATHLESS_OPERATORS } from './match-arguments.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** QueryFeatureNotAllowed (224): not in the shared code table, so its name is set here. */
class QueryFeatureNotAllowed extends CommandError {
  override readonly codeName = 'QueryFeatureNotAllowed';
}

/** Where the parser is: a condition's top level (or a `$and`/`$or`/`$nor` in it), or in `$elemMatch`. */
type Level = 'top' | 'sub';

const GEO_NEAR = new Set(['$near', '$nearSphere', '$geoNear']);

const badValue = (message: string): never => {
  throw new CommandError(ErrorCodes.BadValue, message);
};

/** A field's operator document (`{$gt: 1}`), not a value or a DBRef (`{$ref, $id}`). */
const isOperatorDocument = (value: unknown): value is Doc => {
  if (!isPlainObject(value)) return false;
  const first = Object.keys(value)[0];
  return first !== undefined && first.startsWith('$') && first !== '$ref';
};

/** `$elemMatch`'s argument: operators on the element itself, or a query on its fields. */
function checkElemMatch(argument: unknown): void {
  if (!isPlainObject(argument)) return;
  const first = Object.keys(argument)[0];
  if (first !== undefined && first.startsWith('$') && !PATHLESS_OPERATORS.has(first))
    checkOperators(argument);
  else checkQuery(argument, 'sub');
}

/** The operators on one field (`{$not: …, $elemMatch: …, $near: …}`). */
function checkOperators(operators: Doc): void {
  for (const [operator, argument] of Object.entries(operators)) {
    if (GEO_NEAR.has(operator)) {
      // parseGeo: a geo-near predicate needs a sort, which a $pull condition cannot have.
      throw new CommandError(5626500, '$geoNear, $near, and $nearSphere are not allowed in this context');
    }
    if (operator === '$not' && isPlainObject(argument)) checkOperators(argument);
    else if (operator === '$elemMatch') checkElemMatch(argument);
    else if (operator === '$all' && Array.isArray(argument)) {
      for (const item of argument)
        if (isPlainObject(item) && '$elemMatch' in item) checkElemMatch(item['$elemMatch']);
    }
  }
}

/** A query document, in field order as the parser reads it. */
function checkQuery(query: Doc, level: Level): void {
  for (const [key, value] of Object.entries(query)) {
    switch (key) {
      case '$expr':
        // parseExpr looks at the level before the allowed features.
        if (level === 'sub') badValue('$expr can only be applied to the top-level document');
        throw new QueryFeatureNotAllowed(224, '$expr is not allowed in this context');
      case '$jsonSchema':
        throw new QueryFeatureNotAllowed(224, '$jsonSchema is not allowed in this context');
      case '$where':
        badValue('$where is not allowed in this context');
        break;
      case '$text':
        if (level === 'sub') badValue('$text can only be applied to the top-level document');
        badValue('$text is not allowed in this context');
        break;
      case '$and':
      case '$or':
      case '$nor':
        if (Array.isArray(value))
          for (const clause of value) if (isPlainObject(clause)) checkQuery(clause, level);
        break;
      default:
        // `{ $not: … }` opens a query on the elements' fields, not an operator on the element: PullNode
        // asks parsePathAcceptingKeyword, which does not know `$not`, and the parser refuses it there.
        if (key.startsWith('$') && !PATHLESS_OPERATORS.has(key) && !DBREF_FIELDS.has(key))
          throw unknownTopLevelOperator(key);
        if (!key.startsWith('$') && isOperatorDocument(value)) checkOperators(value);
    }
  }
}

/**
 * Refuses a `$pull` condition that uses a query feature MongoDB bans there. A document whose first field
 * is not a field operator is a query on the array's documents; one whose first field is an operator
 * (`{$gt: 1}`, `{$elemMatch: …}`) applies to each element itself; other values are compared whole.
 * @param condition the value of one `$pull` path
 * @throws CommandError QueryFeatureNotAllowed (224) for `$expr`/`$jsonSchema`, BadValue (2) for
 * `$where`/`$text` (or `$expr`/`$text` inside `$elemMatch`), 5626500 for `$near`/`$nearSphere`/`$geoNear`.
 */
export function checkPullCondition(condition: unknown): void {
  if (!isPlainObject(condition)) return;
  const first = Object.keys(condition)[0];
  if (first !== undefined && PATH_KEYWORDS.has(first)) checkOperators(condition);
  else checkQuery(condition, 'top');
}

/**
 * Checks every `$pull` condition of an operator update (see {@link checkPullCondition}).
 * @throws CommandError as {@link checkPullCondition}.
 */
export function checkPullConditions(update: Doc): void {
  const pull = update['$pull'];
  if (!isPlainObject(pull)) return;
  for (const condition of Object.values(pull)) checkPullCondition(condition);
}
