/**
 * Cluster time in replies: a replica-set member answers every command with `operationTime` and
 * `$clusterTime` (the newest write's cluster time), which `startAtOperationTime` and causally consistent
 * sessions use. The signature is a zero hash: the embedded server has no keys to sign with.
 */
import { Binary, Long } from 'bson';
import type { Doc } from '../engine/values.js';
import type { ServerCore } from './context.js';

const SIGNATURE = { hash: new Binary(Buffer.alloc(20)), keyId: Long.ZERO };

/** Adds `$clusterTime` and `operationTime` to a reply (replica-set mode only, as MongoDB does). */
export function withClusterTime(core: ServerCore, reply: Doc): Doc {
  if (!core.settings.replicaSet) return reply;
  const time = core.engine.history.timestamp();
  reply['$clusterTime'] = { clusterTime: time, signature: SIGNATURE };
  reply['operationTime'] = time;
  return reply;
}
