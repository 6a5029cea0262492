/**
 * The `$redact` stage, as MongoDB 7.0's document_source_redact.cpp runs it: the expression decides for
 * each document, then for each sub-document it descends into (in arrays too, at any depth), whether to
 * keep it whole (`$$KEEP`), drop it (`$$PRUNE`) or keep its plain fields and decide again for each
 * embedded document (`$$DESCEND`); any other answer is error 17053. mingo's kept a document whole on
 * `$$DESCEND` unless the expression was a `$cond`, skipped arrays nested in arrays, and put any other
 * answer in the output in place of the document (a number in a batch, which no driver can read).
 */
import { evalExpr } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import type { PipelineOp } from './operator-types.js';
import { valueText } from './value-strings.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

const PRUNED = Symbol('pruned');

/** The redacted form of a field's value: documents decided again, arrays element by element. */
function redactValue(value: unknown, expr: unknown, options: Options): unknown {
  if (isPlainObject(value)) return redactObject(value, expr, options);
  if (!Array.isArray(value)) return value;
  const kept: unknown[] = [];
  for (const element of value) {
    const redacted = redactValue(element, expr, options);
    if (redacted !== PRUNED) kept.push(redacted);
  }
  return kept;
}

/** `doc` kept, pruned, or with its fields redacted, as the expression decides for it. */
function redactObject(doc: Doc, expr: unknown, options: Options): Doc | typeof PRUNED {
  const decision = evalExpr(doc, expr, options);
  if (decision === '$$KEEP') return doc;
  if (decision === '$$PRUNE') return PRUNED;
  if (decision !== '$$DESCEND')
    throw new CommandError(
      17053,
      `$redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned ${valueText(decision)}`,
    );
  const out: Doc = {};
  for (const [name, value] of Object.entries(doc)) {
    const redacted = redactValue(value, expr, options);
    if (redacted !== PRUNED) out[name] = redacted;
  }
  return out;
}

/**
 * The `$redact` pipeline operator registered in the engine's context (same arguments as mingo's).
 * @throws CommandError 17053 when the expression answers anything but `$$KEEP`, `$$PRUNE` or `$$DESCEND`.
 */
export const redactStage: PipelineOp = (collection, expr, options) =>
  collection.transform((items: unknown[]) => {
    const out: unknown[] = [];
    for (const doc of items) {
      const redacted = redactObject(doc as Doc, expr, options);
      if (redacted !== PRUNED) out.push(redacted);
    }
    return Lazy(out);
  });
