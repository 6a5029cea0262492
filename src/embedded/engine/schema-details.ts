/**
 * Explains why a document fails a `$jsonSchema` validator: the `errInfo.details` of a 121
 * DocumentValidationFailure in MongoDB 5.0+'s shape (one error object per failed keyword, nested through
 * `properties`, `items` and the logical keywords). Keyword order, field names and `reason` texts follow
 * MongoDB's `doc_validation_error.cpp` / `json_schema_parser.cpp` and the expected errors of
 * `jstests/core/doc_validation/doc_validation_error.js` (mongodb/mongo). Pass/fail stays `matchesSchema`'s
 * decision: this only describes a failure. A schema using a keyword not explained here yields undefined, so
 * the caller reports a minimal object rather than a partial or invented one.
 */
import { multipleOfError } from './multiple-of.js';
import { asNumber, matchesSchema, typeMatches } from './schema.js';
import { bsonTypeName, isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';

/** Keywords this file can explain (metadata keywords included). */
const EXPLAINED = new Set([
  'title',
  'description',
  'bsonType',
  'type',
  'pattern',
  'maxLength',
  'minLength',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'items',
  'properties',
  'additionalProperties',
  'required',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'enum',
]);

/** Thrown inside this file when a failure cannot be explained faithfully. */
class Unexplained extends Error {}

const STRING_LENGTH = 'specified string length was not satisfied';
const ARRAY_LENGTH = 'array did not match specified length';

/** The schema's `title` and `description`, which MongoDB copies into the error next to the rule. */
function annotations(schema: Doc): Doc {
  const out: Doc = {};
  for (const key of Object.keys(schema)) if (key === 'title' || key === 'description') out[key] = schema[key];
  return out;
}

function subschemas(schema: Doc, key: string): Doc[] {
  const list = schema[key];
  if (!Array.isArray(list) || !list.every(isPlainObject)) throw new Unexplained();
  return list;
}

/** `{ index, title?, description?, details }` for each listed subschema. */
function schemaEntries(subs: Doc[], indexes: number[], value: unknown, top: boolean): Doc[] {
  return indexes.map((index) => ({
    index,
    ...annotations(subs[index]!),
    details: keywordErrors(subs[index]!, value, top),
  }));
}

/** Errors of the string, number and array keywords of `schema` for a present, non-root `value`. */
function restrictionErrors(schema: Doc, value: unknown, errors: Doc[]): void {
  const leaf = (op: string, reason: string, extra: Doc = {}): void => {
    errors.push({
      operatorName: op,
      specifiedAs: { [op]: schema[op] },
      reason,
      consideredValue: value,
      ...extra,
    });
  };
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema['pattern'] === 'string' && !new RegExp(schema['pattern'], 'u').test(value))
      leaf('pattern', 'regular expression did not match');
    if (typeof schema['maxLength'] === 'number' && length > schema['maxLength'])
      leaf('maxLength', STRING_LENGTH);
    if (typeof schema['minLength'] === 'number' && length < schema['minLength'])
      leaf('minLength', STRING_LENGTH);
  }
  // json_schema_parser.cpp translates multipleOf after the string keywords, before maximum and minimum.
  const multipleOf = multipleOfError(schema, value);
  if (multipleOf) errors.push(multipleOf);
  const n = asNumber(value);
  if (n !== undefined) {
    const max = schema['maximum'];
    const min = schema['minimum'];
    if (typeof max === 'number' && (schema['exclusiveMaximum'] === true ? n >= max : n > max))
      leaf('maximum', 'comparison failed');
    if (typeof min === 'number' && (schema['exclusiveMinimum'] === true ? n <= min : n < min))
      leaf('minimum', 'comparison failed');
  }
  if (!Array.isArray(value)) return;
  if (typeof schema['minItems'] === 'number' && value.length < schema['minItems'])
    leaf('minItems', ARRAY_LENGTH, { numberOfItems: value.length });
  if (typeof schema['maxItems'] === 'number' && value.length > schema['maxItems'])
    leaf('maxItems', ARRAY_LENGTH, { numberOfItems: value.length });
  if (schema['uniqueItems'] === true) {
    const seen = new Set<string>();
    const at = value.findIndex((v) => {
      const key = keyOf(v);
      return seen.has(key) || !seen.add(key);
    });
    if (at >= 0) leaf('uniqueItems', 'found a duplicate item', { duplicatedValue: value[at] });
  }
  const items = schema['items'];
  if (items === undefined) return;
  if (!isPlainObject(items)) throw new Unexplained();
  const itemIndex = value.findIndex((v) => !matchesSchema(items, v));
  if (itemIndex >= 0) {
    errors.push({
      operatorName: 'items',
      ...annotations(items),
      reason: 'At least one item did not match the sub-schema',
      itemIndex,
      details: keywordErrors(items, value[itemIndex], false),
    });
  }
}

/** Errors of `properties`, `additionalProperties: false` and `required` for an object `value`. */
function objectErrors(schema: Doc, value: Doc, errors: Doc[]): void {
  const props = schema['properties'];
  if (props !== undefined && !isPlainObject(props)) throw new Unexplained();
  const failing: Doc[] = [];
  for (const [name, sub] of Object.entries(props ?? {})) {
    if (!isPlainObject(sub)) throw new Unexplained();
    if (value[name] === undefined || matchesSchema(sub, value[name])) continue;
    const details = keywordErrors(sub, value[name], false);
    if (details.length > 0) failing.push({ propertyName: name, ...annotations(sub), details });
  }
  if (failing.length > 0) errors.push({ operatorName: 'properties', propertiesNotSatisfied: failing });
  const additional = schema['additionalProperties'];
  if (additional !== undefined && additional !== true) {
    if (additional !== false) throw new Unexplained();
    const extra = Object.keys(value).filter((k) => !(k in (props ?? {})));
    if (extra.length > 0)
      errors.push({
        operatorName: 'additionalProperties',
        specifiedAs: { additionalProperties: false },
        additionalProperties: extra,
      });
  }
  const required = schema['required'];
  if (Array.isArray(required)) {
    const missing = required.filter((k: unknown) => typeof k === 'string' && value[k] === undefined);
    if (missing.length > 0)
      errors.push({ operatorName: 'required', specifiedAs: { required }, missingProperties: missing });
  }
}

/** Errors of `allOf`, `anyOf`, `oneOf` and `not`. */
function logicalErrors(schema: Doc, value: unknown, top: boolean, errors: Doc[]): void {
  if (schema['allOf'] !== undefined) {
    const subs = subschemas(schema, 'allOf');
    const failed = subs.flatMap((s, i) => (matchesSchema(s, value) ? [] : [i]));
    if (failed.length > 0)
      errors.push({ operatorName: 'allOf', schemasNotSatisfied: schemaEntries(subs, failed, value, top) });
  }
  if (schema['anyOf'] !== undefined) {
    const subs = subschemas(schema, 'anyOf');
    if (!subs.some((s) => matchesSchema(s, value)))
      errors.push({
        operatorName: 'anyOf',
        schemasNotSatisfied: schemaEntries(subs, [...subs.keys()], value, top),
      });
  }
  if (schema['oneOf'] !== undefined) {
    const subs = subschemas(schema, 'oneOf');
    const matching = subs.flatMap((s, i) => (matchesSchema(s, value) ? [i] : []));
    if (matching.length === 0)
      errors.push({
        operatorName: 'oneOf',
        schemasNotSatisfied: schemaEntries(subs, [...subs.keys()], value, top),
      });
    else if (matching.length > 1)
      errors.push({
        operatorName: 'oneOf',
        reason: 'more than one subschema matched',
        matchingSchemaIndexes: matching,
      });
  }
  const not = schema['not'];
  if (not !== undefined) {
    if (!isPlainObject(not)) throw new Unexplained();
    if (matchesSchema(not, value)) errors.push({ operatorName: 'not', reason: 'child expression matched' });
  }
}

/** The failed keywords of `schema` for a present `value` (`top` when `value` is the document itself). */
function keywordErrors(schema: Doc, value: unknown, top: boolean): Doc[] {
  if (Object.keys(schema).some((k) => !EXPLAINED.has(k))) throw new Unexplained();
  if (schema['bsonType'] !== undefined && schema['type'] !== undefined) throw new Unexplained();
  const errors: Doc[] = [];
  // A root schema's scalar and array keywords never apply (MongoDB stores objects only).
  if (!top) restrictionErrors(schema, value, errors);
  if (isPlainObject(value)) objectErrors(schema, value, errors);
  logicalErrors(schema, value, top, errors);
  const choices = schema['enum'];
  if (Array.isArray(choices)) {
    // MongoDB compares the whole root document for a top-level enum; its error is not explained here.
    if (top) throw new Unexplained();
    if (!choices.some((e: unknown) => keyOf(e) === keyOf(value)))
      errors.push({
        operatorName: 'enum',
        specifiedAs: { enum: choices },
        reason: 'value was not found in enum',
        consideredValue: value,
      });
  }
  const typeKey =
    schema['bsonType'] !== undefined ? 'bsonType' : schema['type'] !== undefined ? 'type' : undefined;
  if (!top && typeKey && !typeMatches(value, schema['bsonType'], schema['type']))
    errors.push({
      operatorName: typeKey,
      specifiedAs: { [typeKey]: schema[typeKey] },
      reason: 'type did not match',
      consideredValue: value,
      consideredType: bsonTypeName(value),
    });
  return errors;
}

/**
 * MongoDB's details for `doc` failing `{ $jsonSchema: schema }`, or undefined when the schema uses a
 * keyword this file does not explain.
 */
export function jsonSchemaDetails(schema: Doc, doc: Doc): Doc | undefined {
  try {
    if (!typeMatches(doc, schema['bsonType'], schema['type'])) {
      // A root type that excludes objects compiles to an always-false expression in MongoDB.
      return {
        operatorName: '$jsonSchema',
        specifiedAs: { $jsonSchema: schema },
        reason: 'expression always evaluates to false',
      };
    }
    return {
      operatorName: '$jsonSchema',
      ...annotations(schema),
      schemaRulesNotSatisfied: keywordErrors(schema, doc, true),
    };
  } catch (error) {
    if (error instanceof Unexplained) return undefined;
    throw error;
  }
}
