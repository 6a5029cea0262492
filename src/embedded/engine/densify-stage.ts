/**
 * The `$densify` stage: its specification checked as MongoDB 7.0 checks it (document_source_densify.cpp
 * `RangeStatement::parse` and the IDL parser), so a zero or negative `step` is refused instead of looping
 * forever; the documents it adds come from densify-steps.ts.
 */
import { Lazy } from 'mingo/lazy';
import { numberKind } from './arithmetic.js';
import { compareBson } from './compare.js';
import { checkFieldPath } from './field-path.js';
import { densify } from './densify-steps.js';
import type { DensifySpec } from './densify-steps.js';
import type { PipelineOp } from './operator-types.js';
import { typeName } from './value-strings.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

const UNITS = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond'];

function fail(code: number, message: string): never {
  throw new CommandError(code, message);
}

/** Checks an IDL-parsed document: its known fields, the required ones, strings where strings go. */
function checkFields(path: string, spec: Doc, known: string[], required: string[]): void {
  for (const key of Object.keys(spec)) {
    if (!known.includes(key)) fail(40415, `BSON field '${path}.${key}' is an unknown field.`);
  }
  for (const key of required) {
    if (!(key in spec)) fail(40414, `BSON field '${path}.${key}' is missing but a required field`);
  }
}

/** `range.bounds`: 'full', 'partition' or an ascending pair of numbers (of the step's type) or dates. */
function checkBounds(bounds: unknown, step: unknown, unit: unknown): void {
  if (typeof bounds === 'string') {
    if (bounds !== 'full' && bounds !== 'partition')
      fail(5946802, "Bounds string must either be 'full' or 'partition'");
    return;
  }
  if (!Array.isArray(bounds)) {
    fail(
      5733404,
      "The bounds in a range statement must be the string 'full', 'partition', or an ascending array of two numbers or two dates",
    );
  }
  if (bounds.length !== 2)
    fail(5733403, 'A bounding array in a range statement must have exactly two elements');
  const [lower, upper] = bounds as [unknown, unknown];
  if (compareBson(lower, upper) > 0)
    fail(5733402, 'A bounding array must be an ascending array of either two dates or two numbers');
  if (numberKind(lower) !== undefined) {
    if (unit !== undefined) fail(5733409, 'Numeric bounds may not have unit parameter');
    if (numberKind(upper) === undefined)
      fail(5733406, 'A bounding array must contain either both dates or both numeric types');
    if (numberKind(lower) !== numberKind(upper) || numberKind(lower) !== numberKind(step))
      fail(5876900, 'Upper bound, lower bound, and step must all have the same type');
  } else if (lower instanceof Date) {
    if (!(upper instanceof Date))
      fail(5733405, 'A bounding array must contain either both dates or both numeric types');
    if (unit === undefined) fail(5733410, 'A bounding array of dates must specify a unit');
  } else fail(5946800, 'Explicit bounds must be numeric or dates');
}

/**
 * Checks a `$densify` specification as MongoDB parses it.
 * @throws CommandError 9 (not a document, an unknown unit), 40414/40415/14 (fields), the errors of
 *   `checkFieldPath` (16410 for a `$` field name …), 5733401 (step not
 *   positive), 6586400 (a fractional step for dates), 5733402–5733410, 5876900, 5946800, 5946802 (bounds).
 */
function checkDensify(spec: unknown): asserts spec is Doc {
  if (!isPlainObject(spec))
    fail(
      ErrorCodes.FailedToParse,
      `The $densify stage specification must be an object, found ${typeName(spec)}`,
    );
  checkFields('$densify', spec, ['field', 'partitionByFields', 'range'], ['field', 'range']);
  if (typeof spec['field'] !== 'string') {
    fail(
      ErrorCodes.TypeMismatch,
      `BSON field '$densify.field' is the wrong type '${typeName(spec['field'])}', expected type 'string'`,
    );
  }
  checkFieldPath(spec['field']);
  const partitions = spec['partitionByFields'];
  if (Array.isArray(partitions))
    for (const field of partitions) if (typeof field === 'string') checkFieldPath(field);
  const range = spec['range'];
  if (!isPlainObject(range)) {
    fail(
      ErrorCodes.TypeMismatch,
      `BSON field '$densify.range' is the wrong type '${typeName(range)}', expected type 'object'`,
    );
  }
  checkFields('$densify.range', range, ['step', 'unit', 'bounds'], ['step', 'bounds']);
  const { step, unit, bounds } = range;
  if (numberKind(step) === undefined || !(Number(step) > 0))
    fail(5733401, 'The step parameter in a range statement must be a strictly positive numeric value');
  if (unit !== undefined) {
    if (!Number.isInteger(Number(step))) {
      fail(
        6586400,
        'The step parameter in a range statement must be a whole number when densifying a date range',
      );
    }
    if (typeof unit !== 'string') {
      fail(
        ErrorCodes.TypeMismatch,
        `BSON field '$densify.range.unit' is the wrong type '${typeName(unit)}', expected type 'string'`,
      );
    }
    if (!UNITS.includes(unit)) fail(ErrorCodes.FailedToParse, `unknown time unit value: ${unit}`);
  }
  checkBounds(bounds, step, unit);
  if (bounds === 'partition' && !(Array.isArray(partitions) && partitions.length > 0)) {
    fail(
      5733408,
      "One cannot specify the bounds as 'partition' without specifying a non-empty array of partitionByFields. You may have meant to specify 'full' bounds.",
    );
  }
}

/** The `$densify` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const densifyStage: PipelineOp = (collection, expr) => {
  checkDensify(expr);
  const spec = expr as unknown as DensifySpec;
  return collection.transform((items: unknown[]) => Lazy(densify(items as Doc[], spec)));
};
