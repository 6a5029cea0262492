/**
 * The variables read by the stages whose expressions pipeline-check.ts does not otherwise parse, checked
 * against the scope the stage stands in, as MongoDB checks them when it parses the stage: `$redact`
 * (which adds `DESCEND`, `PRUNE` and `KEEP`, document_source_redact.cpp), `$bucket`, `$bucketAuto`,
 * `$sortByCount`, `$setWindowFields`, `$fill`, `$documents`, `$graphLookup`'s `startWith` and `$expr`
 * clauses nested in a `$match`'s `$and`/`$or`/`$nor`. The names a `$lookup` binds for its sub-pipeline
 * are read here too.
 */
import { checkBoundName } from './expression-paths.js';
import { isPlainObject } from './values.js';
import { checkVariables } from './variable-check.js';
import type { VariableScope } from './variable-scope.js';

/** The names `$redact` defines for its expression (`CURRENT` too, which it rebinds). */
const REDACT_VARIABLES = ['DESCEND', 'PRUNE', 'KEEP', 'CURRENT'];

/** The `$expr` clauses inside a filter's `$and`, `$or` and `$nor` (the top-level one is checked in full). */
function nestedExprs(filter: unknown): unknown[] {
  if (!isPlainObject(filter)) return [];
  const found: unknown[] = [];
  for (const key of ['$and', '$or', '$nor']) {
    const clauses = filter[key];
    if (!Array.isArray(clauses)) continue;
    for (const clause of clauses) {
      if (isPlainObject(clause) && '$expr' in clause) found.push(clause['$expr']);
      found.push(...nestedExprs(clause));
    }
  }
  return found;
}

/**
 * Checks the variables stage `name` reads with `spec`, standing in `scope`.
 * @throws CommandError 17276 for a variable the scope does not define, 9 for a badly spelled one.
 */
export function checkStageVariables(name: string, spec: unknown, scope: VariableScope): void {
  switch (name) {
    case '$redact':
      return checkVariables(spec, scope.bind(REDACT_VARIABLES));
    case '$bucket':
    case '$bucketAuto':
    case '$sortByCount':
    case '$setWindowFields':
    case '$fill':
    case '$documents':
      return checkVariables(spec, scope);
    case '$graphLookup':
      if (isPlainObject(spec)) checkVariables(spec['startWith'], scope);
      return;
    case '$match':
      for (const expr of nestedExprs(spec)) checkVariables(expr, scope);
      return;
  }
}

/**
 * The scope of a `$lookup`'s sub-pipeline: `scope` with the names of its `let` (each value, an expression
 * on the local document, is checked in `scope` itself, as MongoDB parses it in the outer pipeline).
 * @throws CommandError 9 for a `let` name MongoDB's validateNameForUserWrite refuses, 17276 for a `let`
 * value reading an undefined variable.
 */
export function lookupScope(spec: unknown, scope: VariableScope): VariableScope {
  const vars = isPlainObject(spec) && isPlainObject(spec['let']) ? spec['let'] : {};
  for (const [name, expr] of Object.entries(vars)) {
    checkBoundName(name);
    checkVariables(expr, scope);
  }
  return scope.bind(Object.keys(vars));
}
