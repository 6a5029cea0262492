/**
 * A query parsed as MongoDB parses it before it reads any document: the filter (filter-check.ts, with its
 * `$expr` clauses) and a find projection (project-check.ts: its expressions, its kind, its paths), both in the scope of
 * the command's `let` names, so that a read of any other variable is 17276 even on an empty collection.
 */
import { checkFilter } from './filter-check.js';
import { checkFindProjectionShape } from './project-check.js';
import { prepareFilter } from './query.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { VariableScope } from './variable-scope.js';

/** The scope a command's expressions are parsed in: the system variables and its `let` names. */
function letScope(variables: Doc | undefined): VariableScope {
  return VariableScope.root(Object.keys(variables ?? {}));
}

/**
 * A filter parsed as MongoDB parses it, with its `$expr` clauses in the scope of `variables`' names (the
 * command's `let`), and prepared for mingo. The scoped check runs first so that its errors come in the
 * order MongoDB finds them; prepareFilter's own (unscoped) check then passes.
 * @throws CommandError as `checkFilter` and `prepareFilter` do (17276 for an undefined variable …).
 */
export function parseFilter(rawFilter: unknown, variables: Doc | undefined): Doc {
  if (isPlainObject(rawFilter)) checkFilter(rawFilter, letScope(variables));
  return prepareFilter(rawFilter);
}

/**
 * Parses a find's filter and projection as MongoDB does before it reads any document (so also when the
 * collection does not exist): the filter, then the projection's expressions, both in the scope of
 * `variables`' names.
 * @throws CommandError as `checkFilter`/`prepareFilter` and `checkFindProjectionShape` do (17276 for an undefined
 * variable, 168 for an unknown expression operator …).
 */
export function parseFind(filter: unknown, projection: Doc | undefined, variables?: Doc): Doc {
  const prepared = parseFilter(filter, variables);
  if (projection) checkFindProjectionShape(projection, letScope(variables));
  return prepared;
}
