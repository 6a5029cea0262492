/**
 * The `$listLocalSessions` aggregation stage (`aggregate: 1` on `admin`): the sessions this server
 * knows, as `{ _id: { id, uid }, lastUse }` documents. It is rewritten into a `$documents` stage.
 */
import { createHash } from 'node:crypto';
import { Binary, UUID } from 'bson';
import type { Doc } from '../engine/values.js';
import { isPlainObject } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';
import type { ServerCore } from './context.js';

/** The `uid` of the (only, unauthenticated) user: SHA-256 of the empty user name, as MongoDB computes it. */
const UID = new Binary(createHash('sha256').update('').digest());

/**
 * `pipeline` with a leading `$listLocalSessions` replaced by the session documents; unchanged otherwise.
 * @throws CommandError InvalidNamespace (73) unless run with `aggregate: 1` against `admin`.
 */
export function expandListLocalSessions(
  core: ServerCore,
  db: string,
  target: unknown,
  pipeline: Doc[],
): Doc[] {
  const first = pipeline[0];
  if (!isPlainObject(first) || !('$listLocalSessions' in first)) return pipeline;
  if (db !== 'admin' || target !== 1)
    throw new CommandError(
      ErrorCodes.InvalidNamespace,
      "$listLocalSessions must be run against the 'admin' database with {aggregate: 1}",
    );
  const sessions = [...core.sessions.values()].map((s) => ({
    _id: { id: new UUID(s.id), uid: UID },
    lastUse: new Date(s.lastUsed),
  }));
  return [{ $documents: sessions }, ...pipeline.slice(1)];
}
