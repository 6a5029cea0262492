/**
 * The signatures of mingo's operator functions, which the engine's own operators share so that they can
 * be registered over mingo's in its context (context.ts), the state a sliding window function keeps
 * (`WindowState`, shared by the window-state files), and mingo's built-in pipeline stages, which the
 * engine's stages fall back to for the forms they leave alone.
 */
import { evalExpr } from 'mingo/core';
import type { Iterator } from 'mingo/lazy';
import * as pipelineOperators from 'mingo/operators/pipeline';
import type { Options } from 'mingo/types';

/** A compiled query condition on one document. */
export type Predicate = (obj: Record<string, unknown>) => boolean;
/** A query operator: `{ selector: { $op: value } }` compiled to a predicate. */
export type QueryOp = (selector: string, value: unknown, options: Options) => Predicate;
/** An expression operator: `{ $op: expr }` evaluated against `obj`. */
export type ExpressionOp = (obj: unknown, expr: unknown, options: Options) => unknown;
/** An accumulator: `{ $op: expr }` over a group's documents. */
export type AccumulatorOp = (collection: unknown[], expr: unknown, options: Options) => unknown;
/** A pipeline stage: `{ $stage: expr }` over a lazy sequence of documents. */
export type PipelineOp = (collection: Iterator, expr: unknown, options: Options) => Iterator;
/** What mingo's `$setWindowFields` passes a window function about its call. */
export interface WindowCall {
  parentExpr: { sortBy?: Record<string, unknown> };
  inputExpr: Record<string, unknown>;
  documentNumber: number;
  field: string;
}
/** A window function: the current document, its window's documents (or the partition's), the call. */
export type WindowOp = (
  obj: Record<string, unknown>,
  window: Record<string, unknown>[],
  call: WindowCall,
  options: Options,
) => unknown;

/**
 * A window function's state. `add` and `remove` take a document's index in the partition and the value
 * of the function's argument for it; documents leave in the order they entered.
 */
export interface WindowState {
  add(index: number, value: unknown): void;
  remove(index: number, value: unknown): void;
  /** The function's value over the window. */
  result(): unknown;
}

/** mingo's own implementation of the pipeline stage `name` (`'$sort'`, `'$lookup'` …). */
export function builtinStage(name: string): PipelineOp {
  return (pipelineOperators as unknown as Record<string, PipelineOp>)[name]!;
}

/** The operands of an expression operator: an array lists them, anything else is the only one. */
export const operandList = (expr: unknown): unknown[] => (Array.isArray(expr) ? expr : [expr]);

/** The operands of an expression operator, evaluated against `obj` (see {@link operandList}). */
export function evaluateOperands(obj: unknown, expr: unknown, options: Options): unknown[] {
  return operandList(expr).map((operand) => evalExpr(obj, operand, options));
}

/**
 * An operator that is both an accumulator and an expression, as mingo calls it: in `$group` mingo hands
 * an expression operator the group's documents (an array; expression operators win over accumulators of
 * the same name), where it must be `accumulator`; on one document it is `expression`.
 */
export function overGroup(accumulator: AccumulatorOp, expression: ExpressionOp): ExpressionOp {
  return (obj, expr, options) =>
    Array.isArray(obj) ? accumulator(obj, expr, options) : expression(obj, expr, options);
}
