/**
 * A `$merge` whose `whenMatched` is a pipeline, checked when MongoDB 7.0 checks it. When the aggregate is
 * parsed, the pipeline is only lite-parsed (DocumentSourceMerge::LiteParsed::parse builds a
 * LiteParsedPipeline): each stage must be an object of one field naming a known stage, and the `let`
 * expressions are parsed (DocumentSourceMerge's constructor). The pipeline itself is parsed as an update
 * pipeline when the first document reaches `$merge`, matched or not (each batch is sent as an update,
 * and UpdateDriver::parse runs before the update looks for its document); an empty source writes
 * nothing and reports nothing.
 */
import { OpType } from 'mingo/core';
import { CONTEXT } from './context.js';
import { checkExpression } from './expression-check.js';
import { checkBoundName } from './expression-paths.js';
import { isPlainObject } from './values.js';
import type { VariableScope } from './variable-scope.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** Stages the engine runs itself, before or after mingo (aggregate.ts, local-sessions.ts). */
const ENGINE_STAGES = new Set(['$out', '$merge', '$search', '$changeStream', '$listLocalSessions']);

/** Whether `name` is a stage the engine knows. */
function isKnownStage(name: string): boolean {
  return ENGINE_STAGES.has(name) || CONTEXT.getOperator(OpType.PIPELINE, name) !== null;
}

/**
 * The parse-time checks of a `$merge` stage's `spec` standing in `scope`: its `let` names and values,
 * then each `whenMatched` stage's shape and name.
 * @throws CommandError 9 for a `let` name MongoDB's validateNameForUserWrite refuses, the errors of
 * `checkExpression` for a `let` value (168, 17276 …), TypeMismatch (14) for a stage that is not an
 * object, 40323 for one without exactly one field, 40324 for an unknown stage name.
 */
export function checkMergeStage(spec: unknown, scope: VariableScope): void {
  if (!isPlainObject(spec)) return;
  if (isPlainObject(spec['let'])) {
    for (const [name, expr] of Object.entries(spec['let'])) {
      checkBoundName(name);
      checkExpression(expr, '', scope);
    }
  }
  const whenMatched = spec['whenMatched'];
  if (!Array.isArray(whenMatched)) return;
  for (const stage of whenMatched) {
    if (!isPlainObject(stage))
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        "Each element of the 'pipeline' array must be an object",
      );
    const names = Object.keys(stage);
    if (names.length !== 1)
      throw new CommandError(40323, 'A pipeline stage specification object must contain exactly one field.');
    if (!isKnownStage(names[0]!))
      throw new CommandError(40324, `Unrecognized pipeline stage name: '${names[0]!}'`);
  }
}

/**
 * The variables a `whenMatched` pipeline may read: the command's `let` names, the stage's `let` names
 * (`new` alone when it has none), and `new` too for `whenNotMatched: 'insert'`, which MongoDB adds so the
 * update can insert the incoming document (DocumentSourceMerge::create).
 */
export function mergeVariableNames(spec: Record<string, unknown>, commandNames: Iterable<string>): string[] {
  const names = new Set(commandNames);
  const own = isPlainObject(spec['let']) ? Object.keys(spec['let']) : ['new'];
  for (const name of own) names.add(name);
  if ((spec['whenNotMatched'] ?? 'insert') === 'insert') names.add('new');
  return [...names];
}
