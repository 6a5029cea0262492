/**
 * Parses the `insert` and `delete` commands, and an `update` command's statement array, as MongoDB 7.0's
 * IDL parser does (write_ops.idl), before any statement runs. A malformed field fails the whole command,
 * not one statement: a missing field is 40414, a value of the wrong type TypeMismatch (14), an unknown
 * delete-statement field 40415, each naming the field's path (`delete.deletes.q`); an empty batch is
 * InvalidLength (16). A delete's `limit` is read as MongoDB reads it: as a double, where a value that is
 * not a number counts as 0 (delete all).
 */
import { bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** MongoDB's largest write batch (write_ops::kMaxWriteBatchSize). */
const MAX_WRITE_BATCH_SIZE = 100000;

/** MongoDB's InvalidLength code. */
const INVALID_LENGTH = 16;

/** One parsed statement of a `delete` command. */
export interface DeleteSpec {
  q: Doc;
  /** True for `limit: 0` (delete every match). */
  multi: boolean;
  hint?: unknown;
  collation?: unknown;
}

function missingField(path: string): CommandError {
  return new CommandError(40414, `BSON field '${path}' is missing but a required field`);
}

function wrongType(path: string, value: unknown, expected: string): CommandError {
  return new CommandError(
    ErrorCodes.TypeMismatch,
    `BSON field '${path}' is the wrong type '${bsonTypeName(value)}', expected type '${expected}'`,
  );
}

function objectField(path: string, value: unknown): Doc {
  if (!isPlainObject(value)) throw wrongType(path, value, 'object');
  return value;
}

function boolField(path: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw wrongType(path, value, 'bool');
  return value;
}

/**
 * An `array<object>` field: the array, each element an object (`insert.documents.1` names the element).
 * @throws CommandError TypeMismatch (14), as MongoDB 7.0's IDL parser answers.
 */
export function objectArray(path: string, value: unknown): Doc[] {
  if (!Array.isArray(value)) throw wrongType(path, value, 'array');
  value.forEach((element, i) => objectField(`${path}.${i}`, element));
  return value as Doc[];
}

/** @throws CommandError InvalidLength (16) for an empty batch or one over 100,000 statements. */
function checkBatchSize(count: number): void {
  if (count === 0 || count > MAX_WRITE_BATCH_SIZE)
    throw new CommandError(
      INVALID_LENGTH,
      `Write batch sizes must be between 1 and ${MAX_WRITE_BATCH_SIZE}. Got ${count} operations.`,
    );
}

/** A double as C's `%g` prints it (what MongoDB's string builder writes): 6 significant digits. */
export function formatDouble(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, exponent] = n.toExponential(5).split('e') as [string, string];
  const exp = Number(exponent);
  const strip = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (exp < -4 || exp >= 6) {
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${strip(mantissa)}e${exp < 0 ? '-' : '+'}${digits}`;
  }
  return strip(n.toFixed(5 - exp));
}

/** The numeric value MongoDB's `numberDouble()` reads: 0 for anything that is not a number. */
function numberDouble(value: unknown): number {
  if (typeof value === 'number') return value;
  const type = bsonTypeName(value);
  if (type === 'decimal') return Number(String(value));
  return type === 'long' || type === 'int' || type === 'double' ? Number(value) : 0;
}

/** A delete statement's `limit`: true (multi) for 0. @throws CommandError FailedToParse (9). */
function readMultiDelete(value: unknown): boolean {
  const limit = numberDouble(value);
  if (limit !== 0 && limit !== 1)
    throw new CommandError(
      ErrorCodes.FailedToParse,
      `The limit field in delete objects must be 0 or 1. Got ${formatDouble(limit)}`,
    );
  return limit === 0;
}

function parseDeleteEntry(entry: Doc): DeleteSpec {
  let q: Doc | undefined;
  let multi: boolean | undefined;
  const spec: Partial<DeleteSpec> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'q') q = objectField('delete.deletes.q', value);
    else if (key === 'limit') multi = readMultiDelete(value);
    else if (key === 'collation') spec.collation = objectField('delete.deletes.collation', value);
    else if (key === 'hint') {
      if (typeof value !== 'string' && !isPlainObject(value))
        throw new CommandError(ErrorCodes.FailedToParse, 'Hint must be a string or an object');
      spec.hint = value;
    } else if (key !== 'sampleId')
      throw new CommandError(40415, `BSON field 'delete.deletes.${key}' is an unknown field.`);
  }
  if (q === undefined) throw missingField('delete.deletes.q');
  if (multi === undefined) throw missingField('delete.deletes.limit');
  return { ...spec, q, multi };
}

/**
 * The documents and `ordered` flag of an `insert` command.
 * @throws CommandError 40414, TypeMismatch (14) or InvalidLength (16), as MongoDB 7.0 answers.
 */
export function parseInsert(cmd: Doc): { documents: Doc[]; ordered: boolean } {
  let documents: Doc[] | undefined;
  let ordered = true;
  for (const [key, value] of Object.entries(cmd)) {
    if (key === 'documents') documents = objectArray('insert.documents', value);
    else if (key === 'ordered') ordered = boolField('insert.ordered', value);
  }
  if (documents === undefined) throw missingField('insert.documents');
  checkBatchSize(documents.length);
  return { documents, ordered };
}

/**
 * The statements and `ordered` flag of a `delete` command.
 * @throws CommandError 40414, 40415, TypeMismatch (14), FailedToParse (9) or InvalidLength (16).
 */
export function parseDelete(cmd: Doc): { deletes: DeleteSpec[]; ordered: boolean } {
  let deletes: DeleteSpec[] | undefined;
  let ordered = true;
  for (const [key, value] of Object.entries(cmd)) {
    if (key !== 'deletes') {
      if (key === 'ordered') ordered = boolField('delete.ordered', value);
      continue;
    }
    if (!Array.isArray(value)) throw wrongType('delete.deletes', value, 'array');
    // Each statement is checked, then parsed, before the next one, as MongoDB's parser goes.
    deletes = value.map((entry, i) => parseDeleteEntry(objectField(`delete.deletes.${i}`, entry)));
  }
  if (deletes === undefined) throw missingField('delete.deletes');
  checkBatchSize(deletes.length);
  return { deletes, ordered };
}

/**
 * The statement array of an `update` command (`update.updates`): present, an array of documents, 1 to
 * 100,000 of them, each `arrayFilters` an array of documents.
 * @throws CommandError 40414, TypeMismatch (14) or InvalidLength (16).
 */
export function parseUpdateStatements(cmd: Doc): Doc[] {
  if (!('updates' in cmd)) throw missingField('update.updates');
  const updates = objectArray('update.updates', cmd['updates']);
  checkBatchSize(updates.length);
  // write_ops.idl types each statement's arrayFilters `array<object>`.
  for (const st of updates)
    if (st['arrayFilters'] !== undefined && st['arrayFilters'] !== null)
      objectArray('update.updates.arrayFilters', st['arrayFilters']);
  return updates;
}
