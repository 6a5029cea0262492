/**
 * The argument documents of `$dateAdd`, `$dateSubtract`, `$dateDiff`, `$dateTrunc` and `$dateFromParts`,
 * checked as MongoDB 7.0 checks them when it parses the expression (so also on an empty collection), with
 * its codes and messages.
 */
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

type Fail = (code: number, message: string) => never;

/** What each operator takes: its fields, and the codes of its checks. */
interface Shape {
  fields: string[];
  notObject: [number, string];
  unknown: number;
}

const SHAPES: Record<string, Shape> = {
  $dateAdd: {
    fields: ['startDate', 'unit', 'amount', 'timezone'],
    notObject: [5166400, '$dateAdd expects an object as its argument'],
    unknown: 5166401,
  },
  $dateSubtract: {
    fields: ['startDate', 'unit', 'amount', 'timezone'],
    notObject: [5166400, '$dateSubtract expects an object as its argument'],
    unknown: 5166401,
  },
  $dateDiff: {
    fields: ['startDate', 'endDate', 'unit', 'timezone', 'startOfWeek'],
    notObject: [5166301, '$dateDiff only supports an object as its argument'],
    unknown: 5166302,
  },
  $dateTrunc: {
    fields: ['date', 'unit', 'binSize', 'timezone', 'startOfWeek'],
    notObject: [5439007, '$dateTrunc only supports an object as its argument'],
    unknown: 5439008,
  },
  $dateFromParts: {
    fields: [
      'year',
      'month',
      'day',
      'isoWeekYear',
      'isoWeek',
      'isoDayOfWeek',
      'hour',
      'minute',
      'second',
      'millisecond',
      'timezone',
    ],
    notObject: [40519, '$dateFromParts only supports an object as its argument'],
    unknown: 40518,
  },
};

/** The required fields of each operator, with the code and message of a missing one, in MongoDB's order. */
const REQUIRED: Record<string, [string[], number, string][]> = {
  $dateAdd: [
    [['startDate', 'unit', 'amount'], 5166402, '$dateAdd requires startDate, unit, and amount to be present'],
  ],
  $dateSubtract: [
    [
      ['startDate', 'unit', 'amount'],
      5166402,
      '$dateSubtract requires startDate, unit, and amount to be present',
    ],
  ],
  $dateDiff: [
    [['startDate'], 5166303, "Missing 'startDate' parameter to $dateDiff"],
    [['endDate'], 5166304, "Missing 'endDate' parameter to $dateDiff"],
    [['unit'], 5166305, "Missing 'unit' parameter to $dateDiff"],
  ],
  $dateTrunc: [
    [['date'], 5439009, "Missing 'date' parameter to $dateTrunc"],
    [['unit'], 5439010, "Missing 'unit' parameter to $dateTrunc"],
  ],
};

/** `$dateFromParts`: one of the two calendars, not both. */
function checkCalendars(arg: Record<string, unknown>, fail: Fail): void {
  const has = (...names: string[]): boolean => names.some((name) => name in arg);
  if (!has('year', 'isoWeekYear'))
    fail(40516, "$dateFromParts requires either 'year' or 'isoWeekYear' to be present");
  if (has('year') && has('isoWeekYear', 'isoWeek', 'isoDayOfWeek'))
    fail(40489, '$dateFromParts does not allow mixing natural dates with ISO dates');
  if (has('isoWeekYear') && has('year', 'month', 'day'))
    fail(40525, '$dateFromParts does not allow mixing ISO dates with natural dates');
}

/** Whether `name` is one of the operators `checkDateArguments` checks. */
export const isCheckedDateOperator = (name: string): boolean => name in SHAPES;

/**
 * Checks the argument of date operator `name` (one `isCheckedDateOperator` accepts); `prefix` goes
 * before each message.
 * @throws CommandError with MongoDB's code and message: not an object, an unknown field, a missing one.
 */
export function checkDateArguments(
  name: string,
  arg: unknown,
  prefix = '',
): asserts arg is Record<string, unknown> {
  const fail: Fail = (code, message) => {
    throw new CommandError(code, prefix + message);
  };
  const shape = SHAPES[name]!;
  if (!isPlainObject(arg)) fail(...shape.notObject);
  for (const key of Object.keys(arg)) {
    if (!shape.fields.includes(key)) fail(shape.unknown, `Unrecognized argument to ${name}: ${key}`);
  }
  for (const [fields, code, message] of REQUIRED[name] ?? []) {
    if (fields.some((field) => !(field in arg))) fail(code, message);
  }
  if (name === '$dateFromParts') checkCalendars(arg, fail);
}
