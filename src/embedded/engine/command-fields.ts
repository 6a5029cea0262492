/**
 * Typed command fields as MongoDB's IDL parsers read them, with their TypeMismatch (14) answers:
 * `safeBool` fields take a bool or any number (non-zero is true: `new: 1` returns the new document), and
 * `object` fields take a document. A field that is missing or null takes its default.
 */
import { numberKind } from './arithmetic.js';
import { bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** A `safeBool` field of `cmd`; `command` names it in errors (`findAndModify.new`). @throws CommandError TypeMismatch. */
export function safeBool(cmd: Doc, command: string, field: string): boolean {
  const value = cmd[field];
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  const kind = numberKind(value);
  if (kind === undefined)
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field '${command}.${field}' is the wrong type '${bsonTypeName(value)}', expected types '[bool, long, int, decimal, double']`,
    );
  const text = (value as { toString(): string }).toString();
  if (kind === 'decimal') return !/^[-+]?0(\.0*)?(E[-+]?\d+)?$/i.test(text);
  if (kind === 'long') return text !== '0';
  return Number(value) !== 0;
}

/** An `object` field of `cmd`, or undefined. @throws CommandError TypeMismatch. */
export function objectField(cmd: Doc, command: string, field: string): Doc | undefined {
  const value = cmd[field];
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value))
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field '${command}.${field}' is the wrong type '${bsonTypeName(value)}', expected type 'object'`,
    );
  return value;
}
