/**
 * The variables an aggregation expression may read where it stands, tracked as MongoDB tracks them while
 * it parses (its VariablesParseState, variables.cpp): the system variables are always defined; a command's
 * `let` defines its names for the whole pipeline; `$lookup`'s `let` for its sub-pipeline; `$redact` adds
 * `DESCEND`, `PRUNE` and `KEEP`; and `$let`, `$map`, `$filter` and `$reduce` bind names visible in one of
 * their arguments only. MongoDB refuses a read of any other name (17276) before it reads a document; mingo
 * would only notice when a document reached the read.
 */
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

/**
 * Names every expression may read (variables.cpp, `kBuiltinVarNameToId`, plus `CURRENT`, which
 * VariablesParseState::getVariable reads as `ROOT` unless it was rebound).
 */
const SYSTEM_VARIABLES = new Set([
  'ROOT',
  'CURRENT',
  'REMOVE',
  'NOW',
  'CLUSTER_TIME',
  'JS_SCOPE',
  'IS_MR',
  'SEARCH_META',
  'USER_ROLES',
]);

/** The user-defined names visible at one point of a pipeline; a new scope for each binding. */
export class VariableScope {
  private constructor(
    private readonly names: ReadonlySet<string>,
    private readonly constants: ReadonlySet<string>,
  ) {}

  /** The scope at the top of a command's pipeline: the system variables and the command's `let` names. */
  static root(letNames: Iterable<string> = []): VariableScope {
    const names = new Set(letNames);
    return new VariableScope(names, names);
  }

  /** Whether `$$name` is defined here. */
  has(name: string): boolean {
    return this.names.has(name) || SYSTEM_VARIABLES.has(name);
  }

  /** Whether `CURRENT` was rebound (then `'$a'` reads that variable, not the document). */
  rebindsCurrent(): boolean {
    return this.names.has('CURRENT');
  }

  /**
   * Whether `$$name` holds a constant when the pipeline is optimized: a command `let` variable not
   * rebound since (MongoDB sets those with setConstantValue) or `REMOVE`; `NOW`, `CLUSTER_TIME` and the
   * variables of `$let`, `$map` or a `$lookup` are set when the pipeline runs (Variables::hasConstantValue).
   */
  isConstant(name: string): boolean {
    return name === 'REMOVE' || this.constants.has(name);
  }

  /** This scope with `names` defined too. */
  bind(names: Iterable<string>): VariableScope {
    const bound = [...names];
    const constants = new Set([...this.constants].filter((name) => !bound.includes(name)));
    return new VariableScope(new Set([...this.names, ...bound]), constants);
  }
}

/**
 * Throws MongoDB's error for reading `$$name` where `scope` does not define it: 17276
 * `Use of undefined variable: <name>` after `prefix` (VariablesParseState::getVariable).
 */
export function checkDefined(name: string, scope: VariableScope, prefix = ''): void {
  if (!scope.has(name)) throw new CommandError(17276, `${prefix}Use of undefined variable: ${name}`);
}

/** An expression and the scope it is parsed in. */
export type ScopedPart = [expression: unknown, scope: VariableScope];

/** A binding operator's `as` name (or `this` when it gives none, as MongoDB's default). */
const asName = (arg: Record<string, unknown>): string => (typeof arg['as'] === 'string' ? arg['as'] : 'this');

/**
 * The parts of a binding operator's argument, each with the scope MongoDB parses it in (expression.cpp):
 * `$let` `vars` in `scope` and `in` with the vars; `$map` `input` in `scope` and `in` with `as`; `$filter`
 * `input` and `limit` in `scope` and `cond` with `as`; `$reduce` `input` and `initialValue` in `scope`
 * and `in` with `this` and `value`. Returns undefined for any other operator, or an argument that is not
 * a document (its own checks refuse it).
 */
export function scopedParts(operator: string, arg: unknown, scope: VariableScope): ScopedPart[] | undefined {
  if (!isPlainObject(arg)) return undefined;
  const part = (key: string, inner: VariableScope): ScopedPart[] => (key in arg ? [[arg[key], inner]] : []);
  switch (operator) {
    case '$let': {
      const vars = isPlainObject(arg['vars']) ? arg['vars'] : {};
      return [
        ...Object.values(vars).map((expr): ScopedPart => [expr, scope]),
        ...part('in', scope.bind(Object.keys(vars))),
      ];
    }
    case '$map':
      return [...part('input', scope), ...part('in', scope.bind([asName(arg)]))];
    case '$filter':
      return [...part('input', scope), ...part('limit', scope), ...part('cond', scope.bind([asName(arg)]))];
    case '$reduce':
      return [
        ...part('input', scope),
        ...part('initialValue', scope),
        ...part('in', scope.bind(['this', 'value'])),
      ];
    default:
      return undefined;
  }
}
