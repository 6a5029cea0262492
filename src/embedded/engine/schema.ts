/**
 * `$jsonSchema` matching (MongoDB's JSON Schema draft 4 dialect with `bsonType`), for collection validators
 * and queries: bsonType/type, encrypt, required, properties, additionalProperties, patternProperties,
 * minProperties/maxProperties, dependencies, enum, minimum/maximum (+exclusive), multipleOf,
 * minLength/maxLength, pattern, items, additionalItems, minItems/maxItems, uniqueItems,
 * allOf/anyOf/oneOf/not. A keyword for one BSON type leaves values of other types alone, as the
 * restrictions `json_schema_parser.cpp` builds (`makeRestriction`) do; the schema is checked beforehand
 * (json-schema-*.ts), so this only matches.
 */
import { numberKind } from './arithmetic.js';
import { isMultipleOf } from './multiple-of.js';
import { bsonTag, bsonTypeName, hasType, isPlainObject, keyOf, TYPE_NUMBERS } from './values.js';
import { LinearRegExp } from './linear-regex.js';
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

/**
 * The values a property name reaches in `doc`. MongoDB builds each `required`, `properties` and
 * `dependencies` name into a match expression's path (`ExistsMatchExpression(name)`, `_parse(expCtx,
 * name, …)` in json_schema_parser.cpp), so `a.b` is the path through `a` to `b`, not a field named
 * `a.b`; as any path, it reaches into the documents of an array on its way (and a numeric part also
 * indexes it), while a value it ends at is taken whole. A name without a dot reaches `doc[name]` only.
 * Own fields only (a stored document never holds `undefined`).
 */
export function propertyValues(doc: Doc, name: string): unknown[] {
  const parts = name.split('.');
  const out: unknown[] = [];
  const walk = (value: unknown, i: number): void => {
    if (i === parts.length) {
      out.push(value);
      return;
    }
    const part = parts[i]!;
    if (isPlainObject(value)) {
      if (Object.hasOwn(value, part) && value[part] !== undefined) walk(value[part], i + 1);
    } else if (Array.isArray(value)) {
      if (/^\d+$/.test(part) && Number(part) < value.length) walk(value[Number(part)], i + 1);
      for (const element of value) if (isPlainObject(element)) walk(element, i);
    }
  };
  walk(doc, 0);
  return out;
}

/** True when the property `name` (a path when dotted, see `propertyValues`) exists in `doc`. */
export function hasField(doc: Doc, name: string): boolean {
  return propertyValues(doc, name).length > 0;
}

/**
 * True when property `name` of `doc` satisfies `schema` or is missing. A dotted name reaching several
 * values passes when one of them matches, as a path's match expression does.
 */
export function propertyMatches(doc: Doc, name: string, schema: Doc): boolean {
  const values = propertyValues(doc, name);
  return values.length === 0 || values.some((v) => matchesSchema(schema, v));
}

/** BSON type codes of the `$type` aliases, plus the two `TYPE_NUMBERS` leaves out. */
const TYPE_CODES: Record<string, number[]> = {
  ...Object.fromEntries(Object.entries(TYPE_NUMBERS).map(([code, alias]) => [alias, [Number(code)]])),
  dbPointer: [12],
  javascriptWithScope: [15],
  number: [1, 16, 18, 19],
};

/**
 * The bytes of a BinData of subtype 6 (`BinDataType::Encrypt`), or undefined for any other value: what
 * `encrypt` requires (`InternalSchemaBinDataSubTypeExpression`, plus the BinData type `_parse` implies).
 */
export function encryptedBytes(value: unknown): Uint8Array | undefined {
  if (bsonTag(value) !== 'Binary') return undefined;
  const bin = value as { sub_type: number; buffer: Uint8Array; position: number };
  return bin.sub_type === 6 ? bin.buffer.subarray(0, bin.position) : undefined;
}

/**
 * True when encrypted `bytes` hold a value of one of the types `encrypt.bsonType` names
 * (`InternalSchemaBinDataEncryptedTypeExpression`): an 18-byte `FleBlobHeader` at least (subtype byte,
 * 16-byte key id, original BSON type byte) of the deterministic (1) or random (2) kind.
 */
export function encryptedTypeMatches(bytes: Uint8Array, bsonType: unknown): boolean {
  if (bytes.length < 18 || (bytes[0] !== 1 && bytes[0] !== 2)) return false;
  // The type byte is an int8: minKey is stored as 0xff.
  const original = (bytes[17]! << 24) >> 24;
  const aliases = Array.isArray(bsonType) ? (bsonType as unknown[]) : [bsonType];
  return aliases.some((a) => typeof a === 'string' && (TYPE_CODES[a] ?? []).includes(original));
}

/** `encrypt`: a BinData of subtype 6, of the original type `encrypt.bsonType` names when given. */
function matchesEncrypt(encrypt: unknown, value: unknown): boolean {
  const bytes = encryptedBytes(value);
  if (bytes === undefined) return false;
  const bsonType = isPlainObject(encrypt) ? encrypt['bsonType'] : undefined;
  return bsonType === undefined || encryptedTypeMatches(bytes, bsonType);
}

/**
 * `items` and `additionalItems` for an array: a list of schemas applies by position
 * (`InternalSchemaMatchArrayIndexMatchExpression`, an index past the end passes) and `additionalItems`
 * to every element after them (`InternalSchemaAllElemMatchFromIndexMatchExpression`: `false` allows none);
 * a single schema applies to every element and leaves `additionalItems` without effect.
 */
function matchesItems(schema: Doc, value: unknown[]): boolean {
  const items = schema['items'];
  if (isPlainObject(items)) return value.every((v) => matchesSchema(items, v));
  if (!Array.isArray(items)) return true;
  if (!items.every((s: unknown, i) => i >= value.length || (isPlainObject(s) && matchesSchema(s, value[i]))))
    return false;
  const additional = schema['additionalItems'];
  const rest = value.slice(items.length);
  if (additional === false) return rest.length === 0;
  return !isPlainObject(additional) || rest.every((v) => matchesSchema(additional, v));
}

/**
 * `minProperties` and `maxProperties` (`InternalSchemaMin/MaxPropertiesMatchExpression`: every field
 * counts, `_id` too at the top level), then `dependencies`: when a named field is present, a list names
 * fields that must be present too and a schema must match the whole object
 * (`InternalSchemaCondMatchExpression` with an always-true else branch). A string entry is an annotation.
 */
function matchesPropertyCounts(schema: Doc, value: Doc): boolean {
  const count = Object.keys(value).length;
  const min = asNumber(schema['minProperties']);
  const max = asNumber(schema['maxProperties']);
  if ((min !== undefined && count < min) || (max !== undefined && count > max)) return false;
  const dependencies = isPlainObject(schema['dependencies']) ? schema['dependencies'] : {};
  for (const [name, dependency] of Object.entries(dependencies)) {
    if (!hasField(value, name)) continue;
    if (
      Array.isArray(dependency) &&
      !dependency.every((k: unknown) => typeof k === 'string' && hasField(value, k))
    )
      return false;
    if (isPlainObject(dependency) && !matchesSchema(dependency, value)) return false;
  }
  return true;
}

/** True when `value` satisfies `schema`. */
export function matchesSchema(schema: Doc, value: unknown): boolean {
  if (!typeMatches(value, schema['bsonType'], schema['type'])) return false;
  // A top-level `encrypt` implies a BinData root, which never matches (`_parse`'s always-false root).
  if (schema['encrypt'] !== undefined && !matchesEncrypt(schema['encrypt'], value)) return false;
  if (Array.isArray(schema['enum']) && !schema['enum'].some((e: unknown) => keyOf(e) === keyOf(value)))
    return false;
  const n = asNumber(value);
  if (n !== undefined) {
    // Limits may be any BSON number (a Long or Decimal128 limit is as binding as a double).
    const min = asNumber(schema['minimum']);
    const max = asNumber(schema['maximum']);
    if (min !== undefined && (schema['exclusiveMinimum'] === true ? n <= min : n < min)) return false;
    if (max !== undefined && (schema['exclusiveMaximum'] === true ? n >= max : n > max)) return false;
    if (schema['multipleOf'] !== undefined && !isMultipleOf(value, schema['multipleOf'])) return false;
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (length < (asNumber(schema['minLength']) ?? 0)) return false;
    if (length > (asNumber(schema['maxLength']) ?? Infinity)) return false;
    if (typeof schema['pattern'] === 'string' && !LinearRegExp.compile(schema['pattern'], 'u').test(value))
      return false;
  }
  if (Array.isArray(value)) {
    if (value.length < (asNumber(schema['minItems']) ?? 0)) return false;
    if (value.length > (asNumber(schema['maxItems']) ?? Infinity)) return false;
    if (schema['uniqueItems'] === true && new Set(value.map((v) => keyOf(v))).size !== value.length)
      return false;
    if (!matchesItems(schema, value)) return false;
  }
  if (isPlainObject(value)) {
    if (
      Array.isArray(schema['required']) &&
      !schema['required'].every((k: unknown) => typeof k === 'string' && hasField(value, k))
    )
      return false;
    const props = isPlainObject(schema['properties']) ? schema['properties'] : {};
    for (const [k, s] of Object.entries(props)) {
      if (isPlainObject(s) && !propertyMatches(value, k, s)) return false;
    }
    const patterns = isPlainObject(schema['patternProperties']) ? schema['patternProperties'] : {};
    for (const [p, s] of Object.entries(patterns)) {
      const re = LinearRegExp.compile(p, 'u');
      for (const [k, v] of Object.entries(value))
        if (re.test(k) && isPlainObject(s) && !matchesSchema(s, v)) return false;
    }
    const additional = schema['additionalProperties'];
    if (additional !== undefined && additional !== true) {
      const extra = Object.keys(value).filter(
        (k) =>
          !Object.hasOwn(props, k) &&
          !Object.keys(patterns).some((p) => LinearRegExp.compile(p, 'u').test(k)),
      );
      if (additional === false && extra.length > 0) return false;
      if (isPlainObject(additional) && !extra.every((k) => matchesSchema(additional, value[k]))) return false;
    }
    if (!matchesPropertyCounts(schema, value)) return false;
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
