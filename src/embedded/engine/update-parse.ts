/**
 * The checks MongoDB makes when it parses an operator update, before it looks at any document: unknown
 * operators, operands that are not documents, empty paths, operand types (`$inc` of a string, `$pop` of
 * 2, `$currentDate` of a number …) and two operators on one path. Because MongoDB parses first, these
 * errors come back even when the filter matches nothing, and in this order, whatever the documents hold.
 * Messages and codes are MongoDB 7.0's (src/mongo/db/update/*_node.cpp, update_object_node.cpp).
 */
import { bsonText, elementText } from './bson-text.js';
import { numberKind } from './arithmetic.js';
import type { BitOperation } from './arithmetic.js';
import { computePush } from './push.js';
import { bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The update operators MongoDB 7.0 knows. */
export const UPDATE_OPERATORS = new Set([
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

/** `FieldRef` checks on an update path. @throws CommandError EmptyFieldName (56). */
function checkPath(path: string): void {
  if (path === '') throw new CommandError(ErrorCodes.EmptyFieldName, 'An empty update path is not valid.');
  if (path.split('.').includes(''))
    throw new CommandError(
      ErrorCodes.EmptyFieldName,
      `The update path '${path}' contains an empty field name, which is not allowed.`,
    );
}

/** `parseIntegerElementToLong`: MongoDB's integer operands. @throws CommandError FailedToParse (9). */
function integerOperand(path: string, value: unknown): number {
  if (numberKind(value) === undefined)
    throw new CommandError(ErrorCodes.FailedToParse, `Expected a number in: ${elementText(path, value)}`);
  const n = Number(value);
  if (!Number.isInteger(n))
    throw new CommandError(ErrorCodes.FailedToParse, `Expected an integer: ${elementText(path, value)}`);
  return n;
}

/** `CurrentDateNode::init`. @throws CommandError BadValue. */
function checkCurrentDate(spec: unknown): void {
  if (typeof spec === 'boolean') return;
  if (!isPlainObject(spec))
    throw new CommandError(
      ErrorCodes.BadValue,
      `${bsonTypeName(spec)} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).`,
    );
  let valid = false;
  for (const [name, type] of Object.entries(spec)) {
    if (name !== '$type')
      throw new CommandError(ErrorCodes.BadValue, `Unrecognized $currentDate option: ${name}`);
    if (type === 'date' || type === 'timestamp') valid = true;
  }
  if (!valid)
    throw new CommandError(
      ErrorCodes.BadValue,
      "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}",
    );
}

const isArrayFilterPart = (part: string | undefined): boolean =>
  part !== undefined && part.startsWith('$[') && part.endsWith(']');

/** `$rename`'s operand checks (`RenameNode::init`). @throws CommandError BadValue. */
function checkRenameOperand(from: string, to: unknown): void {
  if (typeof to !== 'string')
    throw new CommandError(
      ErrorCodes.BadValue,
      `The 'to' field for $rename must be a string: ${elementText(from, to)}`,
    );
  checkPath(to);
  if (from === to)
    throw new CommandError(
      ErrorCodes.BadValue,
      `The source and target field for $rename must differ: ${elementText(from, to)}`,
    );
  if (from.startsWith(to + '.') || to.startsWith(from + '.'))
    throw new CommandError(
      ErrorCodes.BadValue,
      `The source and target field for $rename must not be on the same path: ${elementText(from, to)}`,
    );
  // RenameNode::init: no `$`, `$[]` or `$[x]` on either side, whatever the document holds.
  const dynamic = (path: string): boolean =>
    path.split('.').some((part) => part === '$' || isArrayFilterPart(part));
  if (dynamic(from))
    throw new CommandError(ErrorCodes.BadValue, `The source field for $rename may not be dynamic: ${from}`);
  if (dynamic(to))
    throw new CommandError(
      ErrorCodes.BadValue,
      `The destination field for $rename may not be dynamic: ${to}`,
    );
}

const isInteger = (value: unknown): boolean => numberKind(value) === 'int' || numberKind(value) === 'long';

/** MongoDB's checks on a `$bit` operand: `{ and|or|xor: int or long, … }`. @throws CommandError BadValue. */
export function checkBitSpec(value: unknown): asserts value is Record<BitOperation, unknown> {
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

/** One operator's operand for one path (each node's `init`). */
function checkOperand(op: string, path: string, value: unknown): void {
  if ((op === '$inc' || op === '$mul') && numberKind(value) === undefined)
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `Cannot ${op === '$inc' ? 'increment' : 'multiply'} with non-numeric argument: {${elementText(path, value)}}`,
    );
  if (op === '$pop') {
    const n = integerOperand(path, value);
    if (n !== 1 && n !== -1)
      throw new CommandError(ErrorCodes.FailedToParse, `$pop expects 1 or -1, found: ${n}`);
  }
  if (op === '$currentDate') checkCurrentDate(value);
  if (op === '$pullAll' && !Array.isArray(value))
    throw new CommandError(
      ErrorCodes.BadValue,
      `$pullAll requires an array argument but was given a ${bsonTypeName(value)}`,
    );
  if (op === '$push') computePush([], value, undefined);
  if (op === '$bit') checkBitSpec(value);
}

/**
 * The paths an update has named so far, every leading part of them (`a`, `a.b` for `a.b.c`), and
 * whether the node at each leading part is an array node (the next part is `$[]` or `$[x]`).
 */
interface UpdatedPaths {
  paths: Set<string>;
  prefixes: Set<string>;
  arrayNodes: Map<string, boolean>;
}

/**
 * MongoDB's "would create a conflict" check (UpdateObjectNode::parseAndMerge): `path` against the
 * paths already updated. The conflict is named by the part of `path` where the two meet: an earlier
 * path ends there (`a` for `a` then `a.b`), or this one ends where an earlier one goes on (`a.b` for
 * `a.b.c` then `a.b`), or one goes on with `$[]`/`$[x]` (an array node) and the other with a field or
 * index (an object node): `a` for `a.$[]` then `a.0`. Set lookups of `path`'s leading parts, not a
 * comparison with every earlier path: an update of 8 000 fields took half a minute that way.
 */
function checkConflict(seen: UpdatedPaths, path: string): void {
  const parts = path.split('.');
  const leading = parts.map((_, i) => parts.slice(0, i + 1).join('.'));
  const shared =
    leading.find((p, i) => {
      if (seen.paths.has(p)) return true;
      const arrayNode = seen.arrayNodes.get(p);
      return i < parts.length - 1 && arrayNode !== undefined && arrayNode !== isArrayFilterPart(parts[i + 1]);
    }) ?? (seen.prefixes.has(path) ? path : undefined);
  if (shared !== undefined)
    throw new CommandError(
      ErrorCodes.ConflictingUpdateOperators,
      `Updating the path '${path}' would create a conflict at '${shared}'`,
    );
  seen.paths.add(path);
  for (const p of leading) seen.prefixes.add(p);
  for (let i = 0; i < parts.length - 1; i++)
    seen.arrayNodes.set(leading[i]!, isArrayFilterPart(parts[i + 1]));
}

/**
 * Parses an operator update as MongoDB does before running it.
 * @throws CommandError FailedToParse, TypeMismatch, BadValue, EmptyFieldName, ConflictingUpdateOperators.
 */
export function checkUpdateOperators(update: Doc): void {
  const seen: UpdatedPaths = { paths: new Set(), prefixes: new Set(), arrayNodes: new Map() };
  for (const [op, arg] of Object.entries(update)) {
    if (!UPDATE_OPERATORS.has(op))
      throw new CommandError(
        ErrorCodes.FailedToParse,
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    if (!isPlainObject(arg))
      throw new CommandError(
        ErrorCodes.FailedToParse,
        `Modifiers operate on fields but we found type ${bsonTypeName(arg)} instead. For example: {$mod: {<field>: ...}} not {${op}: ${bsonText(arg)}}`,
      );
    for (const [path, value] of Object.entries(arg)) {
      checkPath(path);
      if (op === '$rename') checkRenameOperand(path, value);
      checkOperand(op, path, value);
      checkConflict(seen, path);
      if (op === '$rename') checkConflict(seen, value as string);
    }
  }
}
