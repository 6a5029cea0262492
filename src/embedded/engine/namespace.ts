/** Namespaces (`db.collection`): splitting them and checking database and collection names. */
import { CommandError, ErrorCodes } from '../errors.js';

/** Validates a collection name. @throws CommandError InvalidNamespace (73). */
export function checkCollectionName(name: unknown): string {
  if (
    typeof name !== 'string' ||
    name.length === 0 ||
    name.includes('$') ||
    name.includes('\0') ||
    name.startsWith('.')
  ) {
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid collection name: ${String(name)}`);
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
