/**
 * MongoDB server error codes and the error class the embedded server throws inside command handlers.
 * Codes and code names follow the MongoDB server's `error_codes.yml`.
 */

/** Numeric codes → code names for the errors the embedded server raises. */
export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  NoSuchKey: 4,
  FailedToParse: 9,
  TypeMismatch: 14,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  PathNotViable: 28,
  ConflictingUpdateOperators: 40,
  CursorNotFound: 43,
  NamespaceExists: 48,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  CommandNotFound: 59,
  InvalidOptions: 72,
  ImmutableField: 66,
  WriteConflict: 112,
  NoSuchTransaction: 251,
  NoMatchingDocument: 47,
  InvalidResumeToken: 260,
  CursorKilled: 237,
  ChangeStreamFatalError: 280,
  ChangeStreamHistoryLost: 286,
  TransactionTooOld: 225,
  OperationNotSupportedInTransaction: 263,
  CannotIndexParallelArrays: 171,
  Location16020: 16020,
  InvalidIdField: 53,
  IndexNotFoundByName: 27,
  DocumentValidationFailure: 121,
  Unauthorized: 13,
  LockBusy: 46,
  LockTimeout: 24,
  DuplicateKey: 11000,
  NotImplemented: 238,
  CannotCreateIndex: 67,
  DollarPrefixedFieldName: 52,
  EmptyFieldName: 56,
  DocumentTooLarge: 17419,
  IndexBuildAborted: 276,
  InvalidIndexSpecificationOption: 197,
  CannotConvertIndexToUnique: 359,
  InvalidUUID: 207,
  SnapshotTooOld: 239,
  Overflow: 15,
  MaxTimeMSExpired: 50,
  ExceededMemoryLimit: 146,
  QueryExceededMemoryLimitNoDiskUseAllowed: 292,
  BSONObjectTooLarge: 10334,
  InvalidPipelineOperator: 168,
  ConversionFailure: 241,
  GraphContainsCycle: 5,
  ViewDepthLimitExceeded: 165,
  OutOfDiskSpace: 14031,
  CommandNotSupportedOnView: 166,
  OptionNotSupportedOnView: 167,
} as const;

const names = new Map<number, string>();
for (const [name, code] of Object.entries(ErrorCodes)) if (!names.has(code)) names.set(code, name);
names.set(27, 'IndexNotFound');
names.set(11000, 'DuplicateKey');
names.set(16020, 'Location16020');

/** The code name MongoDB uses for `code` (`'Location<code>'` when it has none). */
export function codeName(code: number): string {
  return names.get(code) ?? `Location${code}`;
}

/**
 * An error a command handler throws; the server turns it into `{ ok: 0, errmsg, code, codeName, errorLabels? }`.
 * `extra` fields (e.g. `keyPattern`, `keyValue`) are copied into the reply.
 */
export class CommandError extends Error {
  readonly code: number;
  readonly codeName: string;
  readonly labels: string[];
  readonly extra: Record<string, unknown>;

  constructor(
    code: number,
    message: string,
    options: { labels?: string[]; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'CommandError';
    this.code = code;
    this.codeName = codeName(code);
    this.labels = options.labels ?? [];
    this.extra = options.extra ?? {};
  }

  /** The reply document for this error. */
  toReply(): Record<string, unknown> {
    const reply: Record<string, unknown> = {
      ok: 0,
      errmsg: this.message,
      code: this.code,
      codeName: this.codeName,
    };
    Object.assign(reply, this.extra);
    if (this.labels.length > 0) reply['errorLabels'] = this.labels;
    return reply;
  }
}

/** Shorthand for `new CommandError(ErrorCodes.BadValue, message)`. */
export function badValue(message: string): CommandError {
  return new CommandError(ErrorCodes.BadValue, message);
}

/** Converts anything thrown (mingo errors included) into a CommandError. */
export function toCommandError(error: unknown): CommandError {
  if (error instanceof CommandError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new CommandError(ErrorCodes.BadValue, message);
}
