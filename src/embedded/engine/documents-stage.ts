/**
 * The `$documents` stage as MongoDB 7.0 runs it: document_source_documents.cpp desugars it into a queue
 * of one empty document, `$project: { f: <argument> }`, `$unwind: '$f'` and `$replaceRoot` onto `f`.
 * So the argument is a projection value of an empty document: an array gives its elements, each of which
 * must be a document, and a document value gives itself (`$unwind` passes a non-array through); a
 * document that is not an operator expression is a sub-projection, of which only the computed fields
 * give values (`{ a: 'x', b: 1 }` gives `{ a: 'x' }`, `{}` is 51270); what
 * `$unwind` drops gives nothing: null, missing (a path, the empty document holding no field), and a
 * number or boolean (a projection including or excluding a field the document lacks). The stage reads no
 * input. Where it may stand is pipeline-check.ts's and aggregate.ts's concern.
 */
import { evalExpr } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { builtinStage, type PipelineOp } from './operator-types.js';
import { numberKind } from './arithmetic.js';
import { projectPathsStage } from './project-paths.js';
import { cloneValue, isPlainObject, type Doc } from './values.js';
import { typeName, valueText } from './value-strings.js';
import { CommandError } from '../errors.js';

/** `$replaceRoot`'s refusal of a value that is not a document (document_source_replace_root.cpp). */
function notADocument(value: unknown): CommandError {
  return new CommandError(
    40228,
    `'newRoot' expression must evaluate to an object, but resulting value was: ${valueText(value)}. ` +
      `Type of resulting value: '${typeName(value)}'.`,
  );
}

/** The field MongoDB's desugared `$project` puts the argument in (a fresh UUID there). */
const FIELD = 'documents';

/** The `$project` spec `$documents` of `spec` desugars into. */
export const documentsProjection = (spec: unknown): Doc => ({ [FIELD]: spec });

/**
 * The value `spec` projects onto the empty document: a document that is not an operator expression is a
 * sub-projection, where only computed fields give values ({} is refused by the pipeline check, 51270);
 * anything else is an expression (a number or boolean, an inclusion or exclusion flag, gives nothing).
 */
function projectedValue(spec: unknown, options: Options): unknown {
  if (typeof spec === 'boolean' || numberKind(spec) !== undefined) return undefined;
  const operator = isPlainObject(spec) && Object.keys(spec)[0]?.startsWith('$');
  if (!isPlainObject(spec) || operator) return evalExpr({}, spec, options);
  const [projected] = projectPathsStage(Lazy([{}]), documentsProjection(spec), options).collect<Doc>();
  return projected?.[FIELD];
}

/**
 * The `$documents` pipeline operator registered in the engine's context.
 * @throws CommandError 40228 for a value or element that is not a document.
 */
export const documentsStage: PipelineOp = (_collection, spec, options) => {
  const value = projectedValue(spec, options);
  if (value === null || value === undefined) return Lazy([]);
  const docs: unknown[] = Array.isArray(value) ? value : [value];
  for (const doc of docs) if (!isPlainObject(doc)) throw notADocument(doc);
  return Lazy(docs.map((doc) => cloneValue(doc)));
};

/**
 * The name documentsStage is registered under a second time, for the sub-pipelines mingo runs: its
 * `$lookup` and `$unionWith` take a leading `$documents` out and evaluate it once, themselves, where
 * MongoDB evaluates it for each document (it may read the `$lookup`'s `let` variables).
 */
export const INNER_DOCUMENTS = '$_plumeDocuments';

/**
 * `pipeline` with its leading `$documents` renamed to {@link INNER_DOCUMENTS}, so that mingo runs it as
 * a stage; undefined when `pipeline` does not start with `$documents`.
 */
export function withInnerDocuments(pipeline: unknown): unknown[] | undefined {
  const first: unknown = Array.isArray(pipeline) ? pipeline[0] : undefined;
  if (!isPlainObject(first) || !('$documents' in first)) return undefined;
  return [{ [INNER_DOCUMENTS]: first['$documents'] }, ...(pipeline as unknown[]).slice(1)];
}

const builtinUnionWith = builtinStage('$unionWith');

/**
 * The `$unionWith` pipeline operator: mingo's, its pipeline's leading `$documents` (which stands for
 * the collection) run by the engine's stage over one empty document.
 */
export const unionWithStage: PipelineOp = (collection, spec, options) => {
  const inner = isPlainObject(spec) ? withInnerDocuments(spec['pipeline']) : undefined;
  if (!inner) return builtinUnionWith(collection, spec, options);
  return builtinUnionWith(collection, { coll: [{}], pipeline: inner }, options);
};
