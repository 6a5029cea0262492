/** Namespaces (`db.collection`): splitting them and checking database and collection names. */
import { CommandError, ErrorCodes } from '../errors.js';
import { bsonTypeName } from './values.js';

/**
 * Validates a collection name.
 * @param typeCode the code for a name that is not a string: InvalidNamespace (73) where MongoDB 7.0
 *   checks it with CommandHelpers::parseNsCollectionRequired, BadValue (2) where its IDL parser does
 *   (IDLParserContext::checkAndAssertCollectionName); both say "collection name has invalid type <type>".
 * @throws CommandError `typeCode` for a name that is not a string, InvalidNamespace (73) for an invalid one.
 */
export function checkCollectionName(name: unknown, typeCode: number = ErrorCodes.InvalidNamespace): string {
  if (typeof name !== 'string') {
    throw new CommandError(typeCode, `collection name has invalid type ${bsonTypeName(name)}`);
  }
  if (name.length === 0 || name.includes('$') || name.includes('\0') || name.startsWith('.')) {
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid collection name: ${name}`);
  }
  return name;
}

/** Validates a database name. @throws CommandError InvalidNamespace (73). */
export function checkDbName(name: unknown): string {
  if (typeof name !== 'string' || name.length === 0 || /[/\\. "$*<>:|?\0]/.test(name) || name.length > 63) {
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid database name: '${String(name)}'`);
  }
  return name;
}

/** Splits `db.coll.name` into `[db, 'coll.name']`. */
export function splitNs(ns: string): [string, string] {
  const dot = ns.indexOf('.');
  if (dot <= 0) throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid namespace: ${ns}`);
  return [ns.slice(0, dot), ns.slice(dot + 1)];
}
