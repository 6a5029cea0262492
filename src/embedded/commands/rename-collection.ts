/**
 * `renameCollection`, with MongoDB 7.0's argument checks in its order: run against `admin`, a `to`
 * that is present and a string, a valid source namespace, a valid target namespace, and not the
 * same namespace. Codes and messages are MongoDB's (see test/embedded/conformance/admin-commands.test.ts
 * for the sources), so a client sees what a real server answers.
 */
import { bsonTypeName } from '../engine/values.js';
import { checkDbName, splitNs } from '../engine/namespace.js';
import { isView } from '../engine/views.js';
import { CommandError, ErrorCodes } from '../errors.js';
import type { Handler } from './context.js';
import { exclusively } from './context.js';

/**
 * True for `db.collection` with both parts non-empty and a valid database name (MongoDB's
 * `NamespaceString::isValid`: `validDBName` refuses `/\\. "$*<>:|?`, NUL and names past 63 bytes).
 */
function validNamespace(ns: string): boolean {
  const dot = ns.indexOf('.');
  if (dot <= 0 || dot >= ns.length - 1) return false;
  try {
    checkDbName(ns.slice(0, dot));
    return true;
  } catch {
    return false;
  }
}

export const renameCollection: Handler = (cmd, ctx) => {
  if (ctx.db !== 'admin')
    throw new CommandError(
      ErrorCodes.Unauthorized,
      'renameCollection may only be run against the admin database.',
    );
  const from = cmd['renameCollection'];
  const to = cmd['to'];
  if (to === undefined)
    throw new CommandError(40414, "BSON field 'renameCollection.to' is missing but a required field");
  if (typeof to !== 'string')
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field 'renameCollection.to' is the wrong type '${bsonTypeName(to)}', expected type 'string'`,
    );
  if (typeof from !== 'string')
    throw new CommandError(ErrorCodes.TypeMismatch, 'renameCollection needs string namespaces');
  if (!validNamespace(from))
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid namespace specified '${from}'`);
  if (!validNamespace(to))
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid target namespace: ${to}`);
  if (from === to) throw new CommandError(ErrorCodes.IllegalOperation, "Can't rename a collection to itself");
  // dropTarget is a boolean or the UUID of the collection to drop (numbers are read as booleans).
  const dropTarget = cmd['dropTarget'];
  const drops =
    dropTarget === true ||
    (typeof dropTarget === 'number' && dropTarget !== 0) ||
    bsonTypeName(dropTarget) === 'binData';
  const [fromDb, fromName] = splitNs(from);
  // The manual's "Views" page: views cannot be renamed.
  if (isView(ctx.core.engine.collection(fromDb, fromName)))
    throw new CommandError(ErrorCodes.CommandNotSupportedOnView, `cannot rename view: ${from}`);
  return exclusively(
    ctx,
    () => [from, to],
    () => {
      ctx.core.engine.rename(from, to, drops);
      return { ok: 1 };
    },
  );
};
