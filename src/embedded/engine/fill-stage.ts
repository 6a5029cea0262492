/**
 * The `$fill` stage as MongoDB 7.0 builds it (document_source_fill.cpp): its specification checked by
 * the IDL parser and the stage's own rules, then run as the engine's `$setWindowFields` (`$locf` /
 * `$linearFill` of each `method` field) followed by its `$addFields` (`$ifNull` of each `value` field).
 * mingo's `$fill` threw a JavaScript TypeError without `output`, code 2 for bad options, and ran
 * mingo's own `$setWindowFields`, in mingo's sort order.
 */
import { addFieldsStage } from './add-fields.js';
import type { PipelineOp } from './operator-types.js';
import { typeName } from './value-strings.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { setWindowFieldsStage } from './window-stage.js';
import { CommandError, ErrorCodes } from '../errors.js';

function fail(code: number, message: string): never {
  throw new CommandError(code, message);
}

/** The IDL parser's checks of one document: known fields, their types, the required ones. */
function checkFields(spec: Doc, types: Record<string, (v: unknown) => boolean>, required: string[]): void {
  const expected: Record<string, string> = { sortBy: 'object', output: 'object', partitionByFields: 'array' };
  for (const [key, value] of Object.entries(spec)) {
    const check = types[key];
    if (!check) fail(40415, `BSON field '$fill.${key}' is an unknown field.`);
    if (!check(value)) {
      fail(
        ErrorCodes.TypeMismatch,
        `BSON field '$fill.${key}' is the wrong type '${typeName(value)}', expected type '${expected[key] ?? 'string'}'`,
      );
    }
  }
  for (const key of required) {
    if (!(key in spec)) fail(40414, `BSON field '$fill.${key}' is missing but a required field`);
  }
}

const isString = (v: unknown): boolean => typeof v === 'string';
const anyValue = (): boolean => true;

/**
 * Checks a `$fill` specification and returns the `$setWindowFields` and `$addFields` specs it becomes
 * (either may be undefined).
 * @throws CommandError 9 (not a document), 40414/40415/14 (IDL), 6050200–6050204 (the stage's rules).
 */
function desugar(spec: unknown): { windowSpec?: Doc; addFields?: Doc } {
  if (!isPlainObject(spec)) {
    fail(
      ErrorCodes.FailedToParse,
      `The $fill stage specification must be an object, found ${typeName(spec)}`,
    );
  }
  checkFields(
    spec,
    {
      sortBy: isPlainObject,
      partitionBy: (v) => isString(v) || isPlainObject(v),
      partitionByFields: (v) => Array.isArray(v) && v.every(isString),
      output: isPlainObject,
    },
    ['output'],
  );
  const output = spec['output'] as Doc;
  if (Object.keys(output).length === 0)
    fail(6050203, "The output field in '$fill' must contain an object with at least one element");
  const windowOutput: Doc = {};
  const addFields: Doc = {};
  for (const [field, fieldSpec] of Object.entries(output)) {
    if (!isPlainObject(fieldSpec))
      fail(6050200, 'Each fill output specification must be an object with exactly one field');
    checkFields(fieldSpec, { method: isString, value: anyValue }, []);
    const { method } = fieldSpec;
    if (method !== undefined) {
      if ('value' in fieldSpec) {
        fail(
          6050201,
          "Each fill output specification must have exactly one of 'method' or 'value' fields, not both",
        );
      }
      if (method !== 'locf' && method !== 'linear') fail(6050202, 'Method must be either locf or linear');
      windowOutput[field] = { [method === 'linear' ? '$linearFill' : '$locf']: `$${field}` };
    }
    if ('value' in fieldSpec) addFields[field] = { $ifNull: [`$${field}`, fieldSpec['value']] };
  }
  const windowSpec: Doc = { output: windowOutput };
  if (spec['sortBy'] !== undefined) windowSpec['sortBy'] = spec['sortBy'];
  const byFields = spec['partitionByFields'] as string[] | undefined;
  if (spec['partitionBy'] !== undefined) {
    if (byFields !== undefined) {
      fail(6050204, "Maximum one of 'partitionBy' and 'partitionByFields can be specified in '$fill'");
    }
    windowSpec['partitionBy'] = spec['partitionBy'];
  }
  if (byFields !== undefined)
    windowSpec['partitionBy'] = Object.fromEntries(byFields.map((field) => [field, `$${field}`]));
  return {
    windowSpec: Object.keys(windowOutput).length > 0 ? windowSpec : undefined,
    addFields: Object.keys(addFields).length > 0 ? addFields : undefined,
  };
}

/** The `$fill` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const fillStage: PipelineOp = (collection, expr, options) => {
  const { windowSpec, addFields } = desugar(expr);
  let result = collection;
  if (windowSpec) result = setWindowFieldsStage(result, windowSpec, options);
  if (addFields) result = addFieldsStage(result, addFields, options);
  return result;
};
