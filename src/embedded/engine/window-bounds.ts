/**
 * A window function's `window` field checked as MongoDB 7.0 parses it (WindowBounds::parse,
 * src/mongo/db/pipeline/window_function/window_bounds.cpp) before any document is read: `documents`
 * or `range` (with an optional `unit`), each a two-element array of `'unbounded'`, `'current'` or a
 * number (an integer for `documents` and with a `unit`), the lower bound not above the upper (`'current'`
 * counting as 0, 5339900), a sortBy for bounded `documents` (5339901) and a one-field sortBy for any
 * `range` (5339902); every other mistake is FailedToParse (9). mingo ran such windows, or failed with a
 * TypeError, and range-window.ts relies on these checks.
 */
import { elementText } from './bson-text.js';
import { numberKind } from './arithmetic.js';
import { compareBson } from './compare.js';
import { numberOf } from './value-strings.js';
import { isPlainObject } from './values.js';
import { readsTheDocument } from './variable-check.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The units a `range` window takes (parseTimeUnit). */
const UNITS = new Set(['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond']);

function parseError(message: string): never {
  throw new CommandError(ErrorCodes.FailedToParse, message);
}

/** One bound: `'unbounded'`, `'current'`, or a number `check` accepts. */
function checkBound(bound: unknown, check: (n: unknown) => void): void {
  if (typeof bound === 'string') {
    if (bound !== 'unbounded' && bound !== 'current')
      parseError("Window bounds must be 'unbounded', 'current', or a number.");
  } else if (!isPlainObject(bound)) check(bound);
  // MongoDB folds a bound written as an expression and keeps it only when it became a constant
  // (parseBound); one that reads the document never does. A constant ({ $literal: 1 }) is evaluated later.
  else if (readsTheDocument(bound)) parseError('Window bounds expression must be a constant.');
}

/** The two bounds of `name`, checked by `check`, in order (`'current'` as 0). */
function checkBounds(name: string, value: unknown, check: (n: unknown) => void): void {
  if (!Array.isArray(value) || value.length !== 2)
    parseError(`Window bounds must be a 2-element array: ${elementText(name, value)}`);
  const [lower, upper] = value as unknown[];
  checkBound(lower, check);
  checkBound(upper, check);
  const numeric = (bound: unknown): unknown => (bound === 'current' ? 0 : bound);
  const [low, high] = [numeric(lower), numeric(upper)];
  if (numberKind(low) !== undefined && numberKind(high) !== undefined && compareBson(low, high) > 0)
    throw new CommandError(
      5339900,
      `Lower bound must not exceed upper bound: [${String(numberOf(low))}, ${String(numberOf(high))}]`,
    );
}

const integral = (message: string) => (n: unknown) => {
  if (numberKind(n) === undefined || !Number.isInteger(numberOf(n))) parseError(message);
};

/**
 * Checks the `window` of an output specification against the stage's `sortBy` (undefined when none).
 * @throws CommandError FailedToParse (9), 5339900, 5339901 or 5339902 as described above.
 */
export function checkWindowBounds(window: unknown, sortBy: unknown): void {
  if (!isPlainObject(window)) parseError("'window' field must be an object");
  const fields = Object.keys(window).length;
  const { documents, range, unit } = window;
  if (documents !== undefined && range !== undefined)
    parseError("Window bounds can specify either 'documents' or 'unit', not both.");
  if (range === undefined && unit !== undefined)
    parseError("Window bounds can only specify 'unit' with range-based bounds.");
  if (documents === undefined && range === undefined) {
    if (fields !== 0)
      parseError(
        "'window' field can only contain 'documents' as the only argument or 'range' with an optional 'unit' field",
      );
    return;
  }
  if (documents !== undefined) {
    if (fields !== 1) parseError("'window' field that specifies documents cannot have other fields");
    checkBounds('documents', documents, integral('Numeric document-based bounds must be an integer'));
    const unbounded = (documents as unknown[]).every((b) => b === 'unbounded');
    if (!unbounded && sortBy === undefined)
      throw new CommandError(5339901, 'Document-based bounds require a sortBy');
    return;
  }
  if (unit !== undefined) {
    if (fields !== 2)
      parseError("'window' field that specifies unit cannot have other fields besides 'range'");
    if (typeof unit !== 'string') parseError("'unit' must be a string");
    checkBounds('range', range, integral("With 'unit', range-based bounds must be an integer"));
    if (!UNITS.has(unit)) parseError(`unknown time unit value: ${unit}`);
  } else {
    if (fields !== 1)
      parseError("'window' field that specifies range cannot have other fields besides 'unit'");
    checkBounds('range', range, (n) => {
      if (numberKind(n) === undefined) parseError('Range-based bounds expression must be a number');
    });
  }
  if (!isPlainObject(sortBy) || Object.keys(sortBy).length !== 1)
    throw new CommandError(5339902, 'Range-based bounds require sortBy a single field');
}
