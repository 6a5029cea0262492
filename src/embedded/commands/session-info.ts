/**
 * Logical session ids and transaction numbers read the way MongoDB 7.0's IDL parsers read them
 * (src/mongo/db/session/logical_session_id.idl: `LogicalSessionFromClient`, the `TxnNumber` type;
 * src/mongo/db/initialize_operation_session_info.cpp), with their codes and messages. A session id
 * from a client is `{ id: UUID }`, optionally with `uid` (a SHA-256 digest); anything else is refused
 * before the command runs instead of being read as "no session".
 */
import { Long } from 'bson';
import { bsonTag, bsonTypeName, isPlainObject } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** MongoDB's names of binary subtypes (bsontypes.cpp `typeName(BinDataType)`). */
const SUBTYPE_NAMES: Record<number, string> = {
  0: 'general',
  1: 'function',
  2: 'byte(deprecated)',
  3: 'UUID(deprecated)',
  4: 'UUID',
  5: 'MD5',
  6: 'encrypt',
  7: 'column',
  8: 'sensitive',
  128: 'Custom',
};

/** The digest of the empty user name: every session's `uid` when nobody is logged in. */
const NO_AUTH_DIGEST = '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';

interface BinaryLike {
  sub_type: number;
  buffer: Uint8Array;
  position: number;
}

function wrongType(path: string, value: unknown, expected: string): CommandError {
  return new CommandError(
    ErrorCodes.TypeMismatch,
    `BSON field '${path}' is the wrong type '${bsonTypeName(value)}', expected type '${expected}'`,
  );
}

/** A binary field of one subtype; throws TypeMismatch (14) like IDL's bindata checks. */
function binaryField(path: string, value: unknown, subtype: number): Uint8Array {
  if (bsonTag(value) !== 'Binary') throw wrongType(path, value, 'binData');
  const binary = value as BinaryLike;
  if (binary.sub_type !== subtype)
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field '${path}' is the wrong binData type '${SUBTYPE_NAMES[binary.sub_type] ?? 'invalid'}', ` +
        `expected type '${SUBTYPE_NAMES[subtype]}'`,
    );
  return binary.buffer.subarray(0, binary.position);
}

/**
 * Reads a `LogicalSessionFromClient` document at `path` (e.g. `OperationSessionInfo.lsid`).
 * @returns the session key: the hex of its 16-byte UUID.
 * @throws CommandError TypeMismatch (14) for a value that is not an object or a field of the wrong
 *   (binary) type, 40415 for an unknown field, 40414 without `id`, InvalidUUID (207) for an `id` that is
 *   not 16 bytes, BadValue (2) for a `uid` that is not 32 bytes, InvalidOptions (72) for the fields of
 *   an internal session (`txnNumber`, `txnUUID`), which only sharded clusters accept.
 */
export function logicalSessionId(value: unknown, path: string): string {
  if (!isPlainObject(value)) throw wrongType(path, value, 'object');
  let key: string | undefined;
  let internal = false;
  for (const [field, v] of Object.entries(value)) {
    const at = `${path}.${field}`;
    if (field === 'id') {
      const bytes = binaryField(at, v, 4);
      if (bytes.length !== 16)
        throw new CommandError(
          ErrorCodes.InvalidUUID,
          'uuid must be a 16-byte binary field with UUID (4) subtype',
        );
      key = Buffer.from(bytes).toString('hex');
    } else if (field === 'uid') {
      const bytes = binaryField(at, v, 0);
      if (bytes.length !== 32)
        throw new CommandError(ErrorCodes.BadValue, `Unsupported SHA256Block hash length: ${bytes.length}`);
    } else if (field === 'txnNumber') {
      transactionNumber(v, at);
      internal = true;
    } else if (field === 'txnUUID') {
      binaryField(at, v, 4);
      internal = true;
    } else {
      throw new CommandError(40415, `BSON field '${at}' is an unknown field.`);
    }
  }
  if (key === undefined)
    throw new CommandError(40414, `BSON field '${path}.id' is missing but a required field`);
  if (internal)
    throw new CommandError(
      ErrorCodes.InvalidOptions,
      'Internal sessions are only supported in sharded clusters',
    );
  return key;
}

/**
 * Reads a `TxnNumber`: an int64 and nothing else (not an int, not a double).
 * @throws CommandError TypeMismatch (14) for any other type.
 */
export function transactionNumber(value: unknown, path: string): number {
  if (!Long.isLong(value)) throw wrongType(path, value, 'long');
  return value.toNumber();
}

/**
 * The session and transaction number a command carries (`lsid`, `txnNumber`), checked as
 * initializeOperationSessionInfo checks them.
 * @param replicaSet false on a standalone server, which refuses transaction numbers.
 * @returns the session key (undefined without `lsid`) and the transaction number (undefined without one).
 * @throws CommandError as {@link logicalSessionId}; TypeMismatch (14) for a `txnNumber` that is not a
 *   long; InvalidOptions (72) for one without `lsid` or below zero; IllegalOperation (20) on a standalone.
 */
export function operationSessionInfo(
  cmd: Doc,
  replicaSet: boolean,
): { key: string | undefined; txnNumber: number | undefined } {
  const key =
    cmd['lsid'] === undefined ? undefined : logicalSessionId(cmd['lsid'], 'OperationSessionInfo.lsid');
  if (cmd['txnNumber'] === undefined) return { key, txnNumber: undefined };
  const txnNumber = transactionNumber(cmd['txnNumber'], 'OperationSessionInfo.txnNumber');
  if (key === undefined)
    throw new CommandError(
      ErrorCodes.InvalidOptions,
      'Transaction number requires a session ID to also be specified',
    );
  if (!replicaSet)
    throw new CommandError(
      ErrorCodes.IllegalOperation,
      'Transaction numbers are only allowed on a replica set member or mongos',
    );
  if (txnNumber < 0)
    throw new CommandError(ErrorCodes.InvalidOptions, 'Transaction number cannot be negative');
  return { key, txnNumber };
}

/**
 * The session ids an `endSessions`, `killSessions` or `refreshSessions` command lists, all checked
 * before any is used. `parser` and `element` name them in messages as 7.0's parsers do
 * (`endSessions.endSessions`, then `endSessions.endSessionsFromClient.0` for an element).
 * @throws CommandError TypeMismatch (14) for a list that is not an array or an element that is not an
 *   object, and the errors of {@link logicalSessionId} for an element.
 */
export function sessionIdList(value: unknown, listPath: string, elementPath: string): string[] {
  if (!Array.isArray(value)) throw wrongType(listPath, value, 'array');
  return value.map((lsid, i) => {
    if (!isPlainObject(lsid)) throw wrongType(`${elementPath}.${i}`, lsid, 'object');
    return logicalSessionId(lsid, elementPath);
  });
}

/** How MongoDB prints a session id in messages: its UUID, then its user digest (and two empty parts). */
export function printedSessionId(key: string): string {
  const uuid = `${key.slice(0, 8)}-${key.slice(8, 12)}-${key.slice(12, 16)}-${key.slice(16, 20)}-${key.slice(20)}`;
  return `${uuid} - ${NO_AUTH_DIGEST} -  - `;
}
