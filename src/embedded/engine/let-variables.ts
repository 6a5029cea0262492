/**
 * Variables of aggregation expressions: a command's `let` document, whose values are expressions
 * evaluated once before the command runs (`{ x: { $literal: '$a' } }` binds `$$x` to the string `'$a'`),
 * and the system variables mingo does not provide itself (`$$CLUSTER_TIME`, `$$USER_ROLES`,
 * `$$SEARCH_META`).
 */
import { Timestamp } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { mingoOptions } from './mingo-options.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { checkLetValueReadsNoDocument, checkVariables } from './variable-check.js';
import { VariableScope } from './variable-scope.js';
import { CommandError, ErrorCodes } from '../errors.js';

let lastSecond = 0;
let increment = 0;

/** The server's cluster time now: seconds since the epoch and an increment within that second. */
export function clusterTime(): Timestamp {
  const seconds = Math.floor(Date.now() / 1000);
  if (seconds !== lastSecond) {
    lastSecond = seconds;
    increment = 0;
  }
  increment++;
  return new Timestamp({ t: seconds, i: increment });
}

/**
 * `variables` plus the system variables every expression may read that mingo does not know: `$$CLUSTER_TIME`;
 * `$$USER_ROLES`, the roles of the authenticated user (there are no users here, so none); `$$SEARCH_META`,
 * missing outside a search (variables.cpp reads it as missing when unset).
 */
export function withSystemVariables(variables: Doc | undefined): Doc {
  return { ...variables, CLUSTER_TIME: clusterTime(), USER_ROLES: [], SEARCH_META: undefined };
}

/** A user variable name: a lower-case ASCII letter or non-ASCII first, then letters, digits, `_`. */
function checkName(name: string): void {
  if (!/^[a-z\u0080-\uffff]/.test(name))
    throw new CommandError(
      ErrorCodes.FailedToParse,
      `'${name}' starts with an invalid character for a user variable name`,
    );
  if (!/^[\w\u0080-\uffff]*$/.test(name))
    throw new CommandError(
      ErrorCodes.FailedToParse,
      `'${name}' contains an invalid character for a variable name`,
    );
}

/**
 * Evaluates a command's `let` document: each value is an expression (constants, `$literal`, `$$NOW`,
 * operators) computed once, in order, and may read the variables defined before it
 * (Variables::seedVariablesWithLetParameters).
 * @throws CommandError TypeMismatch when `let` is not a document, FailedToParse for a bad variable name,
 * 17276 for a value reading a variable not defined before it, 4890500 for a value reading the document
 * (`'$a'`, `'$$ROOT'`), BadValue for other evaluation errors mingo raises.
 */
export function evaluateLet(raw: unknown): Doc | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isPlainObject(raw))
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      "BSON field 'let' is the wrong type, expected type 'object'",
    );
  const system = withSystemVariables(undefined);
  const out: Doc = {};
  let scope = VariableScope.root();
  for (const [name, expr] of Object.entries(raw)) {
    checkName(name);
    checkVariables(expr, scope);
    checkLetValueReadsNoDocument(expr, scope);
    scope = scope.bind([name]);
    try {
      out[name] = evalExpr(
        {},
        expr,
        mingoOptions(undefined, { variables: { ...system, ...out } }) as Options,
      );
    } catch (error) {
      if (error instanceof CommandError) throw error;
      throw new CommandError(ErrorCodes.BadValue, (error as Error).message);
    }
  }
  return out;
}
