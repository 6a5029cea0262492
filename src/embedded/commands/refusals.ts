/**
 * What MongoDB 7.0 refuses before (or after) running a command, with its codes and messages: fields a
 * command does not know, commands a transaction may not run, read concerns a command does not support,
 * and write concerns a one-member replica set cannot satisfy.
 */
import type { Doc } from '../engine/values.js';
import { isPlainObject } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';
import { checkKnownFields } from './known-fields.js';

/** MongoDB's IDL code for a field a command does not define. */
const UNKNOWN_FIELD = 40415;

/** The fields of one `update` statement (MongoDB 7.0; `sort` arrived in 8.0). */
const UPDATE_STATEMENT_FIELDS = new Set([
  'q',
  'u',
  'c',
  'arrayFilters',
  'hint',
  'multi',
  'upsert',
  'upsertSupplied',
  'collation',
  'sampleId',
]);

function unknownField(path: string): CommandError {
  return new CommandError(UNKNOWN_FIELD, `BSON field '${path}' is an unknown field.`);
}

/**
 * Refuses fields MongoDB 7.0 does not define on the commands it parses strictly (known-fields.ts), and
 * unknown fields in `update` statements.
 * @throws CommandError 40415 (`BSON field 'insert.collation' is an unknown field.`).
 */
export function checkCommandFields(name: string, cmd: Doc): void {
  checkKnownFields(name, cmd);
  if (name === 'update' && Array.isArray(cmd['updates'])) {
    for (const st of cmd['updates'] as unknown[]) {
      if (!isPlainObject(st)) continue;
      for (const key of Object.keys(st))
        if (!UPDATE_STATEMENT_FIELDS.has(key)) throw unknownField(`update.updates.${key}`);
    }
  }
}

/** Commands a multi-document transaction may run (MongoDB 7.0). */
const TRANSACTION_COMMANDS = new Set([
  'find',
  'getMore',
  'killCursors',
  'aggregate',
  'distinct',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
  'create',
  'createIndexes',
  'commitTransaction',
  'abortTransaction',
]);

/**
 * Refuses commands a transaction may not run (`count`, `listCollections`, `drop` …).
 * @throws CommandError OperationNotSupportedInTransaction (263).
 */
export function checkTransactionCommand(name: string): void {
  if (TRANSACTION_COMMANDS.has(name)) return;
  const hint =
    name === 'count'
      ? ' Please see http://dochub.mongodb.org/core/transaction-count for a recommended alternative.'
      : '';
  throw new CommandError(
    ErrorCodes.OperationNotSupportedInTransaction,
    `Cannot run '${name}' in a multi-document transaction.${hint}`,
  );
}

/** Commands that take `readConcern: { level: 'snapshot' }` outside a transaction. */
const SNAPSHOT_COMMANDS = new Set(['find', 'aggregate', 'distinct', 'getMore', 'killCursors']);

/** The read concern level a command asks for, if any. */
export function readConcernLevel(cmd: Doc): string | undefined {
  const rc = cmd['readConcern'];
  return isPlainObject(rc) && typeof rc['level'] === 'string' ? rc['level'] : undefined;
}

/**
 * Refuses read concerns a command does not support outside a transaction: `snapshot` on anything but
 * find/aggregate/distinct (writes in a snapshot session), and `linearizable` with `$out`/`$merge`.
 * @throws CommandError InvalidOptions (72).
 */
export function checkReadConcern(name: string, cmd: Doc): void {
  const level = readConcernLevel(cmd);
  if (level === 'snapshot' && !SNAPSHOT_COMMANDS.has(name)) {
    throw new CommandError(
      ErrorCodes.InvalidOptions,
      `Command ${name} does not support { readConcern: { level: "snapshot" } }`,
    );
  }
  if (level === 'linearizable' && name === 'aggregate' && Array.isArray(cmd['pipeline'])) {
    for (const stage of cmd['pipeline'] as unknown[]) {
      const stageName = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
      if (stageName === '$out' || stageName === '$merge')
        throw new CommandError(
          ErrorCodes.InvalidOptions,
          `${stageName} cannot be used with a 'linearizable' read concern level`,
        );
    }
  }
}

/**
 * Refuses, before anything is written, a write concern a standalone server can never satisfy.
 * @throws CommandError BadValue (2) for `w` > 1 on a standalone.
 */
export function checkStandaloneWriteConcern(cmd: Doc, replicaSet: string | undefined): void {
  if (replicaSet !== undefined) return;
  const wc = cmd['writeConcern'];
  if (isPlainObject(wc) && typeof wc['w'] === 'number' && wc['w'] > 1)
    throw new CommandError(ErrorCodes.BadValue, "cannot use 'w' > 1 with a standalone server");
}

/**
 * The `writeConcernError` a one-member replica set reports after applying a write whose `w` asks for
 * more members than it has, or names a tag set it does not define; undefined when satisfiable.
 */
export function writeConcernError(cmd: Doc): Doc | undefined {
  const wc = cmd['writeConcern'];
  if (!isPlainObject(wc)) return undefined;
  const w = wc['w'];
  if (typeof w === 'number' && w > 1)
    return { code: 100, codeName: 'UnsatisfiableWriteConcern', errmsg: 'Not enough data-bearing nodes' };
  if (typeof w === 'string' && w !== 'majority')
    return { code: 79, codeName: 'UnknownReplWriteConcern', errmsg: `Unrecognized write concern mode: ${w}` };
  return undefined;
}
