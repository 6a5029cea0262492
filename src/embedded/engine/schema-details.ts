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
import {
  asNumber,
  encryptedBytes,
  encryptedTypeMatches,
  hasField,
  matchesSchema,
  propertyMatches,
  propertyValues,
  typeMatches,
} from './schema.js';
import { bsonTypeName, isPlainObject, keyOf } from './values.js';
import { LinearRegExp } from './linear-regex.js';
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
  'additionalItems',
  'encrypt',
  'properties',
  'additionalProperties',
  'required',
  'minProperties',
  'maxProperties',
  'dependencies',
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
    if (typeof schema['pattern'] === 'string' && !LinearRegExp.compile(schema['pattern'], 'u').matches(value))
      leaf('pattern', 'regular expression did not match');
    if (length > (asNumber(schema['maxLength']) ?? Infinity)) leaf('maxLength', STRING_LENGTH);
    if (length < (asNumber(schema['minLength']) ?? 0)) leaf('minLength', STRING_LENGTH);
  }
  // json_schema_parser.cpp translates multipleOf after the string keywords, before maximum and minimum.
  const multipleOf = multipleOfError(schema, value);
  if (multipleOf) errors.push(multipleOf);
  const n = asNumber(value);
  if (n !== undefined) {
    const max = asNumber(schema['maximum']);
    const min = asNumber(schema['minimum']);
    if (max !== undefined && (schema['exclusiveMaximum'] === true ? n >= max : n > max))
      leaf('maximum', 'comparison failed');
    if (min !== undefined && (schema['exclusiveMinimum'] === true ? n <= min : n < min))
      leaf('minimum', 'comparison failed');
  }
  if (!Array.isArray(value)) return;
  if (value.length < (asNumber(schema['minItems']) ?? 0))
    leaf('minItems', ARRAY_LENGTH, { numberOfItems: value.length });
  if (value.length > (asNumber(schema['maxItems']) ?? Infinity))
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
  if (Array.isArray(items)) return itemListErrors(schema, items, value, errors);
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

/**
 * Errors of `items` as a list of schemas and of `additionalItems` after them. Each failing position is
 * `{ itemIndex, details }` under one `items` error; doc_validation_error.cpp appends that index as a
 * long (`InternalSchemaMatchArrayIndexMatchExpression::arrayIndex`), the others as ints.
 */
function itemListErrors(schema: Doc, items: unknown[], value: unknown[], errors: Doc[]): void {
  if (!items.every(isPlainObject)) throw new Unexplained();
  const failing = items.flatMap((sub, i) =>
    i < value.length && !matchesSchema(sub, value[i])
      ? [{ itemIndex: BigInt(i), details: keywordErrors(sub, value[i], false) }]
      : [],
  );
  if (failing.length > 0) errors.push({ operatorName: 'items', details: failing });
  const additional = schema['additionalItems'];
  if (additional === false && value.length > items.length)
    errors.push({
      operatorName: 'additionalItems',
      specifiedAs: { additionalItems: false },
      reason: 'found additional items',
      additionalItems: value.slice(items.length),
    });
  if (!isPlainObject(additional)) return;
  const at = value.findIndex((v, i) => i >= items.length && !matchesSchema(additional, v));
  if (at >= 0)
    errors.push({
      operatorName: 'additionalItems',
      ...annotations(additional),
      reason: 'At least one additional item did not match the sub-schema',
      itemIndex: at,
      details: keywordErrors(additional, value[at], false),
    });
}

/**
 * The error of `encrypt` for a present, non-root `value` (translateEncryptionKeywords' two expressions;
 * the BinData type it implies reports nothing of its own).
 */
function encryptErrors(schema: Doc, value: unknown, errors: Doc[]): void {
  const encrypt = schema['encrypt'];
  if (encrypt === undefined) return;
  const bytes = encryptedBytes(value);
  const bsonType = isPlainObject(encrypt) ? encrypt['bsonType'] : undefined;
  if (bytes === undefined) errors.push({ operatorName: 'encrypt', reason: 'value was not encrypted' });
  else if (bsonType !== undefined && !encryptedTypeMatches(bytes, bsonType))
    errors.push({ operatorName: 'encrypt', reason: 'encrypted value has wrong type' });
}

/**
 * Errors of `minProperties`, `maxProperties` and `dependencies` for an object `value`, after `required`
 * as translateObjectKeywords orders them. A failing dependency names its `conditionalProperty` and either
 * the `missingProperties` of a list or the `details` of a schema.
 */
function propertyCountErrors(schema: Doc, value: Doc, top: boolean, errors: Doc[]): void {
  const count = Object.keys(value).length;
  for (const keyword of ['minProperties', 'maxProperties']) {
    const limit = asNumber(schema[keyword]);
    if (limit === undefined || (keyword === 'minProperties' ? count >= limit : count <= limit)) continue;
    errors.push({
      operatorName: keyword,
      specifiedAs: { [keyword]: schema[keyword] },
      reason: 'specified number of properties was not satisfied',
      numberOfProperties: count,
    });
  }
  const dependencies = schema['dependencies'];
  if (dependencies === undefined) return;
  if (!isPlainObject(dependencies)) throw new Unexplained();
  const failing: Doc[] = [];
  for (const [name, dependency] of Object.entries(dependencies)) {
    if (!hasField(value, name)) continue;
    if (Array.isArray(dependency)) {
      const missing = dependency.filter((k: unknown) => typeof k === 'string' && !hasField(value, k));
      if (missing.length > 0) failing.push({ conditionalProperty: name, missingProperties: missing });
    } else if (isPlainObject(dependency) && !matchesSchema(dependency, value))
      failing.push({ conditionalProperty: name, details: keywordErrors(dependency, value, top) });
  }
  // The `title`/`description` strings among the dependencies annotate the keyword's error.
  if (failing.length > 0)
    errors.push({ operatorName: 'dependencies', ...annotations(dependencies), failingDependencies: failing });
}

/** Errors of `properties`, `additionalProperties: false` and `required` for an object `value`. */
function objectErrors(schema: Doc, value: Doc, errors: Doc[]): void {
  const props = schema['properties'];
  if (props !== undefined && !isPlainObject(props)) throw new Unexplained();
  const failing: Doc[] = [];
  for (const [name, sub] of Object.entries(props ?? {})) {
    if (!isPlainObject(sub)) throw new Unexplained();
    if (propertyMatches(value, name, sub)) continue;
    const details = keywordErrors(sub, propertyValues(value, name)[0], false);
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
    const missing = required.filter((k: unknown) => typeof k === 'string' && !hasField(value, k));
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
  if (!top) encryptErrors(schema, value, errors);
  if (isPlainObject(value)) {
    objectErrors(schema, value, errors);
    propertyCountErrors(schema, value, top, errors);
  }
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
    if (!typeMatches(doc, schema['bsonType'], schema['type']) || schema['encrypt'] !== undefined) {
      // A root type that excludes objects (`encrypt` implies BinData) compiles to an always-false
      // expression in MongoDB.
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
