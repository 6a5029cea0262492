/**
 * `$jsonSchema` (MongoDB's JSON Schema draft 4 dialect with `bsonType`), the subset used by collection
 * validators and queries: bsonType/type, required, properties, additionalProperties, patternProperties,
 * enum, minimum/maximum (+exclusive), multipleOf, minLength/maxLength, pattern, items, minItems/maxItems,
 * uniqueItems, allOf/anyOf/oneOf/not.
 */
import { numberKind } from './arithmetic.js';
import { isMultipleOf } from './multiple-of.js';
import { bsonTypeName, hasType, isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';

const JSON_TYPES: Record<string, string[]> = {
  object: ['object'],
  array: ['array'],
  string: ['string'],
  boolean: ['bool'],
  number: ['int', 'double', 'long', 'decimal'],
  null: ['null'],
};

/** True when `value` has one of the `bsonType` / JSON `type` names given (each check skipped when undefined). */
export function typeMatches(value: unknown, bsonType: unknown, jsonType: unknown): boolean {
  if (bsonType !== undefined) {
    const types = Array.isArray(bsonType) ? bsonType : [bsonType];
    if (!types.some((t) => typeof t === 'string' && hasType(value, t))) return false;
  }
  if (jsonType !== undefined) {
    const types = Array.isArray(jsonType) ? jsonType : [jsonType];
    const name = bsonTypeName(value);
    if (!types.some((t) => typeof t === 'string' && (JSON_TYPES[t] ?? []).includes(name))) return false;
  }
  return true;
}

/**
 * The numeric value of any BSON number: a JS number, `Int32`, `Double`, `Long` or `Decimal128` (a decimal
 * NaN gives undefined). Undefined for every other value: an array such as `[3]` is not a number (JSON
 * Schema's number keywords leave it alone, as MongoDB's makeRestriction does). Throws nothing.
 */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (numberKind(value) === undefined) return undefined;
  const n = Number((value as { toString(): string }).toString());
  return Number.isNaN(n) ? undefined : n;
}

/** True when `value` satisfies `schema`. */
export function matchesSchema(schema: Doc, value: unknown): boolean {
  if (!typeMatches(value, schema['bsonType'], schema['type'])) return false;
  if (Array.isArray(schema['enum']) && !schema['enum'].some((e: unknown) => keyOf(e) === keyOf(value)))
    return false;
  const n = asNumber(value);
  if (n !== undefined) {
    const min = schema['minimum'];
    const max = schema['maximum'];
    if (typeof min === 'number' && (schema['exclusiveMinimum'] === true ? n <= min : n < min)) return false;
    if (typeof max === 'number' && (schema['exclusiveMaximum'] === true ? n >= max : n > max)) return false;
    if (schema['multipleOf'] !== undefined && !isMultipleOf(value, schema['multipleOf'])) return false;
  }
  if (typeof value === 'string') {
    if (typeof schema['minLength'] === 'number' && [...value].length < schema['minLength']) return false;
    if (typeof schema['maxLength'] === 'number' && [...value].length > schema['maxLength']) return false;
    if (typeof schema['pattern'] === 'string' && !new RegExp(schema['pattern'], 'u').test(value))
      return false;
  }
  if (Array.isArray(value)) {
    if (typeof schema['minItems'] === 'number' && value.length < schema['minItems']) return false;
    if (typeof schema['maxItems'] === 'number' && value.length > schema['maxItems']) return false;
    if (schema['uniqueItems'] === true && new Set(value.map((v) => keyOf(v))).size !== value.length)
      return false;
    const items = schema['items'];
    if (isPlainObject(items) && !value.every((v) => matchesSchema(items, v))) return false;
    if (
      Array.isArray(items) &&
      !items.every((s: unknown, i) => i >= value.length || (isPlainObject(s) && matchesSchema(s, value[i])))
    )
      return false;
  }
  if (isPlainObject(value)) {
    if (
      Array.isArray(schema['required']) &&
      !schema['required'].every((k: unknown) => typeof k === 'string' && value[k] !== undefined)
    )
      return false;
    const props = isPlainObject(schema['properties']) ? schema['properties'] : {};
    for (const [k, s] of Object.entries(props)) {
      if (value[k] !== undefined && isPlainObject(s) && !matchesSchema(s, value[k])) return false;
    }
    const patterns = isPlainObject(schema['patternProperties']) ? schema['patternProperties'] : {};
    for (const [p, s] of Object.entries(patterns)) {
      const re = new RegExp(p, 'u');
      for (const [k, v] of Object.entries(value))
        if (re.test(k) && isPlainObject(s) && !matchesSchema(s, v)) return false;
    }
    const additional = schema['additionalProperties'];
    if (additional !== undefined && additional !== true) {
      const extra = Object.keys(value).filter(
        (k) => !(k in props) && !Object.keys(patterns).some((p) => new RegExp(p, 'u').test(k)),
      );
      if (additional === false && extra.length > 0) return false;
      if (isPlainObject(additional) && !extra.every((k) => matchesSchema(additional, value[k]))) return false;
    }
  }
  const sub = (key: string): Doc[] =>
    Array.isArray(schema[key]) ? (schema[key] as unknown[]).filter(isPlainObject) : [];
  if (sub('allOf').some((s) => !matchesSchema(s, value))) return false;
  if (Array.isArray(schema['anyOf']) && !sub('anyOf').some((s) => matchesSchema(s, value))) return false;
  if (Array.isArray(schema['oneOf']) && sub('oneOf').filter((s) => matchesSchema(s, value)).length !== 1)
    return false;
  if (isPlainObject(schema['not']) && matchesSchema(schema['not'], value)) return false;
  return true;
}
