/**
 * The fields MongoDB 7.0's IDL defines for each command it parses strictly (`strict: true`), so that an
 * unknown field is refused as the server refuses it: `BSON field '<parser>.<field>' is an unknown field.`
 * (40415), instead of being silently ignored (a misspelt option would otherwise do nothing).
 *
 * `<parser>` is the name the server's parser reports: the command name, except `find`, which MongoDB
 * parses as `FindCommandRequest` (query_request_helper.cpp; FerretDB's integration suite records
 * "BSON field 'FindCommandRequest.query' is an unknown field." from MongoDB 7.0).
 *
 * Commands MongoDB does not parse strictly — `hello`/`isMaster`, `ping`, `buildInfo`, `serverStatus`,
 * `collStats`, `dbStats`, `validate`, `dataSize`, `killSessions`, `startSession` … — are not listed and
 * keep accepting any field.
 */
import type { Doc } from '../engine/values.js';
import { CommandError } from '../errors.js';
import { isGenericArgument } from './generic-arguments.js';

/** MongoDB's IDL code for a field a command does not define (codeName `Location40415` in 7.0). */
const UNKNOWN_FIELD = 40415;

/** A strictly parsed command: the name its parser reports fields under, and the fields it defines. */
interface StrictCommand {
  parser: string;
  fields: ReadonlySet<string>;
}

/** A table entry from a space-separated field list (the lists are long; one line each stays readable). */
function strict(parser: string, fields: string): StrictCommand {
  return { parser, fields: new Set(fields.split(/\s+/).filter(Boolean)) };
}

/** WriteCommandRequestBase of src/mongo/db/ops/write_ops.idl, chained into insert, update and delete. */
const WRITE_BASE =
  'bypassDocumentValidation ordered stmtId stmtIds isTimeseriesNamespace collectionUUID encryptionInformation';

/** findAndModify, from the `findAndModify` command of write_ops.idl (alias `findandmodify`). */
const FIND_AND_MODIFY = strict(
  'findAndModify',
  'query fields sort batchSize singleBatch hint collation arrayFilters remove update upsert new stmtId ' +
    'bypassDocumentValidation let runtimeConstants writeConcern encryptionInformation mirrored sampleId',
);

/**
 * The fields of each strict command, by command name (the IDL file each list comes from is named).
 * Internal fields mongos or replication set are listed too: MongoDB accepts them from any client.
 */
const STRICT_COMMANDS: Readonly<Record<string, StrictCommand>> = {
  // src/mongo/db/ops/write_ops.idl
  insert: strict('insert', `${WRITE_BASE} documents`),
  update: strict('update', `${WRITE_BASE} updates let runtimeConstants mirrored`),
  delete: strict('delete', `${WRITE_BASE} deletes let runtimeConstants`),
  findAndModify: FIND_AND_MODIFY,
  findandmodify: FIND_AND_MODIFY,
  // src/mongo/db/query/find_command.idl
  find: strict(
    'FindCommandRequest',
    'filter projection sort hint collation skip limit batchSize singleBatch allowDiskUse min max ' +
      'returnKey showRecordId $queryOptions tailable oplogReplay noCursorTimeout awaitData ' +
      'allowPartialResults let term readOnce allowSpeculativeMajorityRead $_requestResumeToken ' +
      '$_resumeAfter maxTimeMS readConcern runtimeConstants collectionUUID encryptionInformation ' +
      'mirrored sampleId',
  ),
  // src/mongo/db/pipeline/aggregate_command.idl
  aggregate: strict(
    'aggregate',
    'pipeline explain allowDiskUse cursor maxTimeMS bypassDocumentValidation readConcern collation ' +
      'hint writeConcern let needsMerge fromMongos $queryOptions $_requestReshardingResumeToken ' +
      'exchange runtimeConstants isMapReduceCommand collectionUUID $_passthroughToShard ' +
      'encryptionInformation $_externalDataSources sampleId stmtId $_isClusterQueryWithoutShardKeyCmd ' +
      '$_requestResumeToken $_resumeAfter',
  ),
  // src/mongo/db/query/count_command.idl (`fields` is parsed and ignored, a mongo shell leftover)
  count: strict(
    'count',
    'query limit skip hint collation fields readConcern maxTimeMS $queryOptions encryptionInformation ' +
      'mirrored sampleId',
  ),
  // src/mongo/db/query/distinct_command.idl (`hint` arrived in 7.1)
  distinct: strict('distinct', 'key query collation mirrored sampleId'),
  // src/mongo/db/query/getmore_command.idl, src/mongo/db/query/kill_cursors.idl
  getMore: strict('getMore', 'collection batchSize maxTimeMS term lastKnownCommittedOpTime'),
  killCursors: strict('killCursors', 'cursors'),
  // src/mongo/db/create_indexes.idl, drop_indexes.idl, list_indexes.idl
  createIndexes: strict(
    'createIndexes',
    'v indexes ignoreUnknownIndexOptions commitQuorum returnOnStart isTimeseriesNamespace collectionUUID',
  ),
  dropIndexes: strict('dropIndexes', 'index isTimeseriesNamespace collectionUUID'),
  listIndexes: strict('listIndexes', 'cursor includeBuildUUIDs includeIndexBuildInfo isTimeseriesNamespace'),
  // src/mongo/db/list_collections.idl, src/mongo/db/commands/list_databases.idl
  listCollections: strict(
    'listCollections',
    'cursor filter nameOnly authorizedCollections includePendingDrops',
  ),
  listDatabases: strict('listDatabases', 'nameOnly authorizedDatabases filter'),
  // src/mongo/db/commands/create.idl (`recordPreImages` was removed in 6.2, SERVER-60919)
  create: strict(
    'create',
    'capped autoIndexId idIndex size max storageEngine validator validationLevel validationAction ' +
      'indexOptionDefaults viewOn pipeline collation changeStreamPreAndPostImages timeseries ' +
      'clusteredIndex expireAfterSeconds encryptedFields temp flags',
  ),
  // src/mongo/db/drop.idl, src/mongo/db/drop_database.idl
  drop: strict('drop', 'collectionUUID'),
  dropDatabase: strict('dropDatabase', ''),
  // src/mongo/db/coll_mod.idl (CollModRequest; cappedSize and cappedMax arrived in 6.0)
  collMod: strict(
    'collMod',
    'index validator validationLevel validationAction viewOn pipeline changeStreamPreAndPostImages ' +
      'expireAfterSeconds timeseries isTimeseriesNamespace dryRun cappedSize cappedMax collectionUUID',
  ),
  // src/mongo/db/commands/rename_collection.idl
  renameCollection: strict('renameCollection', 'to dropTarget stayTemp collectionUUID'),
  // src/mongo/db/commands/query_cmd/explain.idl (the explained command is checked by the explain handler)
  explain: strict('explain', 'verbosity'),
  // src/mongo/db/commands/txn_cmds.idl
  commitTransaction: strict('commitTransaction', 'commitTimestamp recoveryToken'),
  abortTransaction: strict('abortTransaction', 'recoveryToken'),
  // src/mongo/db/commands/sessions_commands.idl (killSessions is a lenient struct: not listed)
  endSessions: strict('endSessions', ''),
  refreshSessions: strict('refreshSessions', ''),
};

/**
 * Refuses a field the command `name` does not define, as MongoDB 7.0's strict IDL parser does. Generic
 * arguments (generic-arguments.ts) are accepted by every command; commands MongoDB parses leniently, and
 * names that are not commands, are not checked.
 * @param name the command's name (its first field, e.g. `find`, or `findandmodify`).
 * @param cmd the whole command document (for `explain`, call it again with the explained command).
 * @throws CommandError 40415, e.g. `BSON field 'aggregate.colation' is an unknown field.`
 */
export function checkKnownFields(name: string, cmd: Doc): void {
  const command = Object.prototype.hasOwnProperty.call(STRICT_COMMANDS, name)
    ? STRICT_COMMANDS[name]
    : undefined;
  if (!command) return;
  for (const key of Object.keys(cmd)) {
    // The command's own field (its name) comes first and is parsed apart, as the namespace or argument.
    if (key === name || command.fields.has(key) || isGenericArgument(key)) continue;
    throw new CommandError(UNKNOWN_FIELD, `BSON field '${command.parser}.${key}' is an unknown field.`);
  }
}
