/**
 * Update application with MongoDB's validation on top of mingo's update operators: replacement vs
 * operator vs pipeline updates, `$setOnInsert`, upsert seeding from equality fields, immutable `_id`,
 * conflicting paths, and type errors (`$inc` on a string …).
 */
import { ObjectId, Timestamp } from 'bson';
import type { Long } from 'bson';
import { update as mingoUpdate } from 'mingo/updater';
import type { Modifier } from 'mingo/updater';
import type { Collation } from './collation.js';
import { compareBson } from './compare.js';
import { add, bitwise, LongOverflowError, multiply, numberKind, zeroLike } from './arithmetic.js';
import type { BitOperation } from './arithmetic.js';
import { plainNumbers } from './numbers.js';
import { applyPipeline } from './pipeline-update.js';
import { expandPositional } from './positional.js';
import { computePush } from './push.js';
import type { PositionalContext } from './positional.js';
import { withSystemVariables } from './let-variables.js';
import { mingoOptions } from './query.js';
import { bsonTypeName, cloneValue, getPath, idFirst, isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

const OPERATORS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$rename',
  '$setOnInsert',
  '$min',
  '$max',
  '$currentDate',
  '$push',
  '$addToSet',
  '$pop',
  '$pull',
  '$pullAll',
  '$bit',
]);

const NUMERIC = new Set(['int', 'double', 'long', 'decimal']);

/** Operators whose new value the engine computes itself (see computeUpdate). */
const COMPUTED = new Set(['$inc', '$mul', '$min', '$max', '$push', '$addToSet', '$bit']);

/** What kind of update document this is. */
export function updateKind(update: unknown): 'pipeline' | 'replacement' | 'operators' {
  if (Array.isArray(update)) return 'pipeline';
  if (!update || typeof update !== 'object')
    throw new CommandError(ErrorCodes.FailedToParse, 'Update argument must be an object or an array');
  const keys = Object.keys(update);
  if (keys.length > 0 && keys[0]!.startsWith('$')) return 'operators';
  return 'replacement';
}

function checkReplacement(doc: Doc): void {
  for (const key of Object.keys(doc)) {
    if (key.startsWith('$')) {
      throw new CommandError(
        ErrorCodes.DollarPrefixedFieldName,
        `The dollar ($) prefixed field '${key}' in '${key}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
      );
    }
  }
}

function pathsConflict(a: string, b: string): boolean {
  return a === b || a.startsWith(b + '.') || b.startsWith(a + '.');
}

function describeId(doc: Doc): string {
  return `{_id: ${JSON.stringify(doc['_id'])}}`;
}

/** Validates an operator update against the current document; returns the modifier to hand to mingo. */
function validateOperators(doc: Doc, update: Doc, inserting: boolean, context: PositionalContext): Doc {
  const modifier: Doc = {};
  // Arithmetic and comparisons done here with MongoDB's types and order, applied as `$set`.
  const computed: Doc = {};
  const seen: string[] = [];
  for (const [op, arg] of Object.entries(update)) {
    if (!OPERATORS.has(op)) {
      if (op.startsWith('$'))
        throw new CommandError(
          ErrorCodes.FailedToParse,
          `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
        );
      throw new CommandError(
        ErrorCodes.FailedToParse,
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
    if (!isPlainObject(arg))
      throw new CommandError(
        ErrorCodes.FailedToParse,
        `Modifiers operate on fields but we found type ${bsonTypeName(arg)} instead. For example: {$mod: {<field>: ...}} not {${op}: ${JSON.stringify(arg)}}`,
      );
    if (op === '$setOnInsert' && !inserting) {
      for (const path of Object.keys(arg)) seen.push(path);
      continue;
    }
    const fields: Doc = {};
    for (const [path, value] of Object.entries(arg)) {
      if (path === '')
        throw new CommandError(ErrorCodes.EmptyFieldName, 'An empty update path is not valid.');
      const targets = op === '$rename' ? [path, String(value)] : [path];
      for (const t of targets) {
        const clash = seen.find((s) => pathsConflict(s, t));
        if (clash !== undefined)
          throw new CommandError(
            ErrorCodes.ConflictingUpdateOperators,
            `Updating the path '${t}' would create a conflict at '${clash}'`,
          );
        seen.push(t);
      }
      if (path === '_id' || path.startsWith('_id.')) {
        if (
          (op === '$set' || op === '$setOnInsert') &&
          (inserting || keyOf(getPath(doc, path)) === keyOf(value))
        ) {
          if (inserting && path === '_id') doc['_id'] = cloneValue(value);
          if (inserting && path === '_id') continue;
          if (!inserting) continue;
        } else {
          throw new CommandError(
            ErrorCodes.ImmutableField,
            `Performing an update on the path '_id' would modify the immutable field '_id'`,
          );
        }
      }
      const positional = path.includes('$');
      if (!positional && op !== '$unset' && op !== '$pull' && op !== '$pullAll' && op !== '$pop')
        checkViable(doc, path);
      const current = positional ? undefined : getPath(doc, path);
      const currentType = current === undefined ? undefined : bsonTypeName(current);
      if (op === '$inc' || op === '$mul') checkArithmetic(op, path, current, value, doc);
      if (positional && COMPUTED.has(op)) {
        // Resolved here, so that numbers keep MongoDB's types and order (mingo's drop longs and decimals).
        for (const concrete of expandPositional(doc, path, context)) {
          const target = getPath(doc, concrete);
          if (op === '$inc' || op === '$mul') checkArithmetic(op, concrete, target, value, doc);
          if (computeUpdate(op, concrete, target, value, computed, doc, context.collation)) continue;
          if (op === '$min' || op === '$max')
            computed[concrete] = value; // a missing field takes the value
          else if (op === '$push' || op === '$addToSet')
            throw new CommandError(
              ErrorCodes.BadValue,
              `The field '${concrete}' must be an array but is of type ${bsonTypeName(target)} in document ${describeId(doc)}`,
            );
          else
            throw new CommandError(
              ErrorCodes.TypeMismatch,
              `Cannot apply ${op} to a value of non-numeric type. ${describeId(doc)} has the field '${concrete}' of non-numeric type ${bsonTypeName(target)}`,
            );
        }
        continue;
      }
      if ((op === '$push' || op === '$addToSet') && currentType !== undefined && currentType !== 'array') {
        throw new CommandError(
          ErrorCodes.BadValue,
          `The field '${path}' must be an array but is of type ${currentType} in document ${describeId(doc)}`,
        );
      }
      if ((op === '$pull' || op === '$pullAll') && currentType !== undefined && currentType !== 'array') {
        throw new CommandError(ErrorCodes.BadValue, `Cannot apply ${op} to a non-array value`);
      }
      if (op === '$pop' && currentType !== undefined && currentType !== 'array') {
        throw new CommandError(
          ErrorCodes.TypeMismatch,
          `Path '${path}' contains an element of non-array type '${currentType}'`,
        );
      }
      if (op === '$pullAll' && !Array.isArray(value))
        throw new CommandError(
          ErrorCodes.BadValue,
          `$pullAll requires an array argument but was given a ${bsonTypeName(value)}`,
        );
      if (op === '$rename' && typeof value !== 'string')
        throw new CommandError(
          ErrorCodes.BadValue,
          `The 'to' field for $rename must be a string: ${path}: ${JSON.stringify(value)}`,
        );
      if (!positional && computeUpdate(op, path, current, value, computed, doc, context.collation)) continue;
      fields[path] = op === '$pop' ? plainNumbers(value) : value;
    }
    const target = op === '$setOnInsert' ? '$set' : op;
    if (Object.keys(fields).length > 0) modifier[target] = { ...(modifier[target] ?? {}), ...fields };
  }
  if (Object.keys(computed).length > 0) modifier['$set'] = { ...(modifier['$set'] ?? {}), ...computed };
  return modifier;
}

/** MongoDB's checks on `$inc`/`$mul` operands. @throws CommandError TypeMismatch. */
function checkArithmetic(
  op: '$inc' | '$mul',
  path: string,
  current: unknown,
  value: unknown,
  doc: Doc,
): void {
  if (!NUMERIC.has(bsonTypeName(value))) {
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `Cannot ${op === '$inc' ? 'increment' : 'multiply'} with non-numeric argument: {${path}: ${JSON.stringify(value)}}`,
    );
  }
  const currentType = current === undefined ? undefined : bsonTypeName(current);
  if (currentType !== undefined && currentType !== 'null' && !NUMERIC.has(currentType)) {
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `Cannot apply ${op} to a value of non-numeric type. ${describeId(doc)} has the field '${path}' of non-numeric type ${currentType}`,
    );
  }
  if (currentType === 'null' && op === '$inc')
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `Cannot apply $inc to a value of non-numeric type. ${describeId(doc)} has the field '${path}' of non-numeric type null`,
    );
}

/**
 * `$inc`/`$mul` on numbers, `$min`/`$max` on an existing value, `$addToSet`, `$push` (push.ts), `$bit`
 * on ints and longs and `$currentDate`, with MongoDB's types, order and equality (mingo's lose longs
 * and decimals, compare numbers by type and write no timestamps): computes the new value into
 * `computed` and returns true; returns false to leave the operator to mingo (positional paths, values it
 * reports as errors).
 * @throws CommandError BadValue when int64 arithmetic overflows, as MongoDB does.
 */
function computeUpdate(
  op: string,
  path: string,
  current: unknown,
  value: unknown,
  computed: Doc,
  doc: Doc,
  collation: Collation | undefined,
): boolean {
  if (op === '$addToSet' && (current === undefined || Array.isArray(current))) {
    // Set membership by MongoDB's equality (5 and Long(5) are one value; strings under the collation).
    const each = isPlainObject(value) && Object.keys(value)[0] === '$each' ? value['$each'] : undefined;
    if (each !== undefined && !Array.isArray(each)) return false;
    const next = [...((current as unknown[] | undefined) ?? [])];
    const keys = new Set(next.map((v) => keyOf(v, collation)));
    for (const item of (each as unknown[] | undefined) ?? [value]) {
      const key = keyOf(item, collation);
      if (keys.has(key)) continue;
      keys.add(key);
      next.push(cloneValue(item));
    }
    computed[path] = next;
    return true;
  }
  if (op === '$inc' || op === '$mul') {
    if (numberKind(value) === undefined) return false;
    if (current === undefined) {
      computed[path] = op === '$inc' ? add([0, value]) : zeroLike(value);
      return true;
    }
    if (numberKind(current) === undefined) return false;
    try {
      computed[path] = (op === '$inc' ? add : multiply)([current, value], 'throw');
    } catch (error) {
      if (!(error instanceof LongOverflowError)) throw error;
      throw new CommandError(
        ErrorCodes.BadValue,
        `Failed to apply ${op} operations to current value ((NumberLong)${(current as Long).toString()}) for document ${describeId(doc)}`,
      );
    }
    return true;
  }
  if (op === '$push' && (current === undefined || Array.isArray(current))) {
    const next = computePush(current, value, collation);
    if (next === undefined) return false;
    computed[path] = next;
    return true;
  }
  if (op === '$currentDate') {
    computed[path] = currentDate(value, path);
    return true;
  }
  if (op === '$bit') {
    checkBitSpec(value);
    if (current !== undefined && !isInteger(current)) {
      throw new CommandError(
        ErrorCodes.BadValue,
        `Cannot apply $bit to a value of non-integral type.${describeId(doc)} has the field ${path} of non-integer type ${bsonTypeName(current)}`,
      );
    }
    let result: unknown = current ?? 0;
    for (const [operation, operand] of Object.entries(value)) {
      result = bitwise(operation as BitOperation, result, operand);
    }
    computed[path] = result;
    return true;
  }
  if ((op === '$min' || op === '$max') && current !== undefined) {
    // MongoDB's comparison order (mingo's puts ObjectId, booleans and int64 elsewhere).
    const order = compareBson(current, value);
    if (op === '$min' ? order > 0 : order < 0) computed[path] = value;
    return true;
  }
  return false;
}

const isInteger = (value: unknown): boolean => numberKind(value) === 'int' || numberKind(value) === 'long';

/** MongoDB's checks on a `$bit` operand: `{ and|or|xor: int or long, … }`. @throws CommandError BadValue. */
function checkBitSpec(value: unknown): asserts value is Record<BitOperation, unknown> {
  if (!isPlainObject(value)) {
    throw new CommandError(
      ErrorCodes.BadValue,
      `The $bit modifier is not compatible with a ${bsonTypeName(value)}. You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}`,
    );
  }
  for (const [operation, operand] of Object.entries(value)) {
    if (operation !== 'and' && operation !== 'or' && operation !== 'xor') {
      throw new CommandError(
        ErrorCodes.BadValue,
        `The $bit modifier only supports 'and', 'or', and 'xor', not '${operation}' which is an unknown operator`,
      );
    }
    if (!isInteger(operand)) {
      throw new CommandError(
        ErrorCodes.BadValue,
        `The $bit modifier field must be an Integer(32/64 bit); a '${bsonTypeName(operand)}' is not supported here`,
      );
    }
  }
}

let timestampIncrement = 0;

/**
 * The value `$currentDate` sets: a `Date`, or a `Timestamp` (seconds, and an increment that orders
 * timestamps of the same second) for `{ $type: 'timestamp' }`. @throws CommandError BadValue.
 */
function currentDate(spec: unknown, path: string): Date | Timestamp {
  if (typeof spec === 'boolean') return new Date();
  if (!isPlainObject(spec)) {
    throw new CommandError(
      ErrorCodes.BadValue,
      `${path} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).`,
    );
  }
  const type = spec['$type'];
  if (Object.keys(spec).length !== 1 || (type !== 'date' && type !== 'timestamp')) {
    throw new CommandError(
      ErrorCodes.BadValue,
      "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}",
    );
  }
  if (type === 'date') return new Date();
  timestampIncrement = (timestampIncrement % 0xffffffff) + 1;
  return new Timestamp({ t: Math.floor(Date.now() / 1000), i: timestampIncrement });
}

/** MongoDB refuses to create a field under a scalar: PathNotViable (28). */
function checkViable(doc: Doc, path: string): void {
  const parts = path.split('.');
  let cur: unknown = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    if (cur === null || cur === undefined) return;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(parts[i]!)) {
        throw new CommandError(
          ErrorCodes.PathNotViable,
          `Cannot create field '${parts[i]!}' in element {${parts.slice(0, i).join('.')}: [...]}`,
        );
      }
      cur = cur[Number(parts[i])];
      continue;
    }
    if (!isPlainObject(cur)) {
      throw new CommandError(
        ErrorCodes.PathNotViable,
        `Cannot create field '${parts[i]!}' in element {${parts.slice(0, i).join('.')}: ${JSON.stringify(cur)}}`,
      );
    }
    cur = cur[parts[i]!];
  }
  if (cur !== null && cur !== undefined && !isPlainObject(cur) && !Array.isArray(cur)) {
    throw new CommandError(
      ErrorCodes.PathNotViable,
      `Cannot create field '${parts[parts.length - 1]!}' in element {${parts.slice(0, -1).join('.')}: ${JSON.stringify(cur)}}`,
    );
  }
}

/** Options for {@link applyUpdate}. */
export interface ApplyOptions {
  arrayFilters?: Doc[];
  /** True when the update builds an upserted document ($setOnInsert applies, _id may be set). */
  inserting?: boolean;
  /** The (prepared) query, for the positional `$` operator. */
  filter?: Doc;
  collation?: Collation;
  variables?: Doc;
}

/**
 * Applies an update to a stored document and returns the new document (a fresh object; `doc` is not
 * touched) and whether anything changed.
 * @throws CommandError on invalid updates (FailedToParse, ImmutableField, TypeMismatch, ConflictingUpdateOperators …).
 */
export function applyUpdate(
  doc: Doc,
  update: unknown,
  options: ApplyOptions = {},
): { doc: Doc; changed: boolean } {
  const kind = updateKind(update);
  const oldId = doc['_id'];
  let next: Doc;
  if (kind === 'replacement') {
    const replacement = update as Doc;
    checkReplacement(replacement);
    if ('_id' in replacement && !options.inserting && keyOf(replacement['_id']) !== keyOf(oldId)) {
      throw new CommandError(
        ErrorCodes.ImmutableField,
        `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${JSON.stringify(replacement['_id'])}`,
      );
    }
    next = {
      _id: '_id' in replacement && options.inserting ? replacement['_id'] : oldId,
      ...cloneValue(replacement),
    };
    if (next['_id'] === undefined) delete next['_id'];
  } else {
    next = cloneValue(doc);
    const queryOptions = mingoOptions(options.collation, {
      variables: withSystemVariables(options.variables),
    });
    try {
      if (kind === 'pipeline') {
        next = applyPipeline(next, update as unknown[], queryOptions);
      } else {
        const modifier = validateOperators(next, update as Doc, options.inserting ?? false, options);
        const positional = Object.values(modifier).some((f) =>
          Object.keys(f as Doc).some((k) => /\.\$(\.|$)/.test(k)),
        );
        if (Object.keys(modifier).length > 0) {
          mingoUpdate(
            next,
            modifier as Modifier<Doc>,
            options.arrayFilters,
            positional ? options.filter : undefined,
            {
              cloneMode: 'deep',
              queryOptions,
            },
          );
        }
      }
    } catch (error) {
      if (error instanceof CommandError) throw error;
      const message = (error as Error).message;
      throw new CommandError(
        /conflict/i.test(message) ? ErrorCodes.ConflictingUpdateOperators : ErrorCodes.BadValue,
        message,
      );
    }
    if (!options.inserting && keyOf(next['_id']) !== keyOf(oldId)) {
      throw new CommandError(
        ErrorCodes.ImmutableField,
        `Performing an update on the path '_id' would modify the immutable field '_id'`,
      );
    }
  }
  next = idFirst(next);
  return {
    doc: next,
    changed: keyOf(next) !== keyOf(doc) || Object.keys(next).join() !== Object.keys(doc).join(),
  };
}

function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = cur[parts[i]!];
    if (!isPlainObject(next)) cur[parts[i]!] = {};
    cur = cur[parts[i]!] as Doc;
  }
  cur[parts[parts.length - 1]!] = value;
}

/** The equality fields of a filter that seed an upserted document (`{a: 1, b: {$eq: 2}, $and: [...]}`). */
export function seedFromFilter(filter: Doc): Doc {
  const out: Doc = {};
  const visit = (f: Doc): void => {
    for (const [key, value] of Object.entries(f)) {
      if (key === '$and' && Array.isArray(value)) {
        for (const clause of value) if (isPlainObject(clause)) visit(clause);
      } else if ((key === '$or' || key === '$nor') && Array.isArray(value)) {
        if (key === '$or' && value.length === 1 && isPlainObject(value[0])) visit(value[0]);
      } else if (!key.startsWith('$')) {
        if (value instanceof RegExp) continue;
        if (isPlainObject(value)) {
          const keys = Object.keys(value);
          if (keys.some((k) => k.startsWith('$'))) {
            if ('$eq' in value) setPath(out, key, cloneValue(value['$eq']));
            else if ('$in' in value && Array.isArray(value['$in']) && value['$in'].length === 1)
              setPath(out, key, cloneValue(value['$in'][0]));
            continue;
          }
        }
        setPath(out, key, cloneValue(value));
      }
    }
  };
  visit(filter);
  return out;
}

/**
 * Builds the document an upsert inserts: seeded from the filter's equalities, then the update applied
 * (with `$setOnInsert`), `_id` generated when absent and moved first.
 */
export function buildUpsert(filter: Doc, update: unknown, options: ApplyOptions = {}): Doc {
  const kind = updateKind(update);
  const seed = seedFromFilter(filter);
  let doc: Doc;
  if (kind === 'replacement') {
    const replacement = update as Doc;
    checkReplacement(replacement);
    doc = { ...('_id' in seed ? { _id: seed['_id'] } : {}), ...cloneValue(replacement) };
  } else {
    doc = applyUpdate(seed, update, { ...options, inserting: true }).doc;
  }
  if (doc['_id'] === undefined) doc = { _id: new ObjectId(), ...doc };
  return idFirst(doc);
}
