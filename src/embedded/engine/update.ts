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
import { elementText, idText } from './bson-text.js';
import { checkRename } from './rename.js';
import { checkBitSpec, checkUpdateOperators } from './update-parse.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

const NUMERIC = new Set(['int', 'double', 'long', 'decimal']);

/** Operators whose new value the engine computes itself (see computeUpdate). */
const COMPUTED = new Set(['$inc', '$mul', '$min', '$max', '$push', '$addToSet', '$bit']);

/** What kind of update document this is. */
export function updateKind(update: unknown): 'pipeline' | 'replacement' | 'operators' {
  if (Array.isArray(update)) return 'pipeline';
  if (!update || typeof update !== 'object')
    throw new CommandError(ErrorCodes.FailedToParse, 'Update argument must be either an object or an array');
  const keys = Object.keys(update);
  if (keys.length > 0 && keys[0]!.startsWith('$')) return 'operators';
  return 'replacement';
}

/**
 * What kind of update this is, after MongoDB's parse-time checks of an operator update (update-parse.ts),
 * which fail before any document is looked at.
 */
export function checkUpdate(update: unknown): 'pipeline' | 'replacement' | 'operators' {
  const kind = updateKind(update);
  if (kind === 'operators') checkUpdateOperators(update as Doc);
  return kind;
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

const describeId = idText;

/** Validates an operator update against the current document; returns the modifier to hand to mingo. */
function validateOperators(doc: Doc, update: Doc, inserting: boolean, context: PositionalContext): Doc {
  const modifier: Doc = {};
  // Arithmetic and comparisons done here with MongoDB's types and order, applied as `$set`.
  const computed: Doc = {};
  for (const [op, arg] of Object.entries(update as Record<string, Doc>)) {
    if (op === '$setOnInsert' && !inserting) continue;
    const fields: Doc = {};
    for (const [path, value] of Object.entries(arg)) {
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
      if (op === '$rename') {
        checkRename(doc, path, value as string);
        checkViable(doc, value as string);
      } else if (!positional && op !== '$unset' && op !== '$pull' && op !== '$pullAll' && op !== '$pop')
        checkViable(doc, path);
      const current = positional ? undefined : getPath(doc, path);
      const currentType = current === undefined ? undefined : bsonTypeName(current);
      if (op === '$inc' || op === '$mul') checkArithmetic(op, path, current, doc);
      if (positional && COMPUTED.has(op)) {
        // Resolved here, so that numbers keep MongoDB's types and order (mingo's drop longs and decimals).
        for (const concrete of expandPositional(doc, path, context)) {
          const target = getPath(doc, concrete);
          if (op === '$inc' || op === '$mul') checkArithmetic(op, concrete, target, doc);
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
              `Cannot apply ${op} to a value of non-numeric type. ${describeId(doc)} has the field '${lastPart(concrete)}' of non-numeric type ${bsonTypeName(target)}`,
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
      if (!positional && computeUpdate(op, path, current, value, computed, doc, context.collation)) continue;
      fields[path] = op === '$pop' ? plainNumbers(value) : value;
    }
    const target = op === '$setOnInsert' ? '$set' : op;
    if (Object.keys(fields).length > 0) modifier[target] = { ...(modifier[target] ?? {}), ...fields };
  }
  if (Object.keys(computed).length > 0) modifier['$set'] = { ...(modifier['$set'] ?? {}), ...computed };
  return modifier;
}

/** The last part of a path: MongoDB names the field, not its path, in type errors. */
const lastPart = (path: string): string => path.slice(path.lastIndexOf('.') + 1);

/** MongoDB's check on the value `$inc`/`$mul` meets (the operand is checked when parsed). @throws CommandError TypeMismatch. */
function checkArithmetic(op: '$inc' | '$mul', path: string, current: unknown, doc: Doc): void {
  const currentType = current === undefined ? undefined : bsonTypeName(current);
  if (currentType === undefined || NUMERIC.has(currentType) || (currentType === 'null' && op === '$mul'))
    return;
  throw new CommandError(
    ErrorCodes.TypeMismatch,
    `Cannot apply ${op} to a value of non-numeric type. ${describeId(doc)} has the field '${lastPart(path)}' of non-numeric type ${currentType}`,
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
        `Failed to apply ${op} operations to current value ((${numberKind(current) === 'int' ? 'NumberInt' : 'NumberLong'})${(current as Long).toString()}) for document ${describeId(doc)}`,
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
    computed[path] = currentDate(value);
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

let timestampIncrement = 0;

/**
 * The value `$currentDate` sets (its operand checked when parsed): a `Date`, or a `Timestamp` (seconds,
 * and an increment that orders timestamps of the same second) for `{ $type: 'timestamp' }`.
 */
function currentDate(spec: unknown): Date | Timestamp {
  if (!isPlainObject(spec) || spec['$type'] !== 'timestamp') return new Date();
  timestampIncrement = (timestampIncrement % 0xffffffff) + 1;
  return new Timestamp({ t: Math.floor(Date.now() / 1000), i: timestampIncrement });
}

/**
 * MongoDB refuses to create a field under a value that cannot hold it (a scalar, or an array with a
 * part that is not an index): PathNotViable (28), naming the deepest existing element on the path.
 */
function checkViable(doc: Doc, path: string): void {
  const parts = path.split('.');
  let name = '';
  let cur: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    let next: unknown;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(part))
        throw new CommandError(
          ErrorCodes.PathNotViable,
          `Cannot create field '${part}' in element {${elementText(name, cur)}}`,
        );
      next = cur[Number(part)];
    } else if (isPlainObject(cur)) next = cur[part];
    else
      throw new CommandError(
        ErrorCodes.PathNotViable,
        `Cannot create field '${part}' in element {${elementText(name, cur)}}`,
      );
    if (next === undefined) return;
    name = part;
    cur = next;
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
  const kind = checkUpdate(update);
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
