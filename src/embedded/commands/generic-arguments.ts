/**
 * The generic arguments: fields every command accepts besides its own, as MongoDB 7.0 lists them in
 * src/mongo/idl/generic_argument.idl (`generic_args_api_v1` and `generic_args_unstable_v1`). An
 * IDL-parsed command refuses any other field it does not define (known-fields.ts), so this one list
 * decides what drivers may attach to every command (sessions, transactions, read/write concerns, the
 * Stable API, `$readPreference`, `$clusterTime` …).
 */

/** Arguments every command accepts (both lists of MongoDB 7.0's generic_argument.idl). */
const GENERIC_ARGUMENTS: ReadonlySet<string> = new Set([
  // generic_args_api_v1: stable for API version 1.
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  '$db',
  'maxTimeMS',
  'readConcern',
  'writeConcern',
  'lsid',
  'clientOperationKey',
  'txnNumber',
  'autocommit',
  'startTransaction',
  'stmtId',
  'comment',
  '$readPreference',
  '$clusterTime',
  // generic_args_unstable_v1: internal (mongos, replication, auditing), accepted all the same.
  '$audit',
  '$client',
  '$configServerState',
  'allowImplicitCollectionCreation',
  '$oplogQueryData',
  '$queryOptions',
  '$replData',
  'databaseVersion',
  'shardVersion',
  'tracking_info',
  'coordinator',
  'maxTimeMSOpOnly',
  '$configTime',
  '$topologyTime',
  'txnRetryCounter',
  'mayBypassWriteBlocking',
  '$tenant',
]);

/**
 * Whether `field` is a generic argument, accepted by every command.
 * @param field a top-level field name of a command document.
 * @returns true for the fields of MongoDB 7.0's generic_argument.idl. Throws nothing.
 */
export function isGenericArgument(field: string): boolean {
  return GENERIC_ARGUMENTS.has(field);
}
