/**
 * What an event carries between instances: its data and a serialisable copy of its context, checked
 * when it is emitted so a value that cannot travel fails there, with its path named.
 */
import { BSON } from 'mongodb';
import { GeneralError, PayloadTooLarge } from '../errors/index.js';
import type { SyncContext } from './declarations.js';

function isHookContext(value: unknown): value is {
  path: string;
  method: string;
  id?: unknown;
  params?: Record<string, unknown>;
} {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { path?: unknown }).path === 'string' &&
    typeof (value as { method?: unknown }).method === 'string' &&
    'app' in value
  );
}

/** The context sent along: the travelling fields of a hook context, or the argument as given. */
export function contextPayload(event: string, context: unknown): unknown {
  if (!isHookContext(context)) return context;
  const params = context.params ?? {};
  const payload: SyncContext = {
    path: context.path,
    method: context.method,
    event,
    params: { query: params['query'], route: params['route'], provider: params['provider'] },
  };
  if (context.id !== undefined) payload.id = context.id;
  return payload;
}

function refuse(event: string, path: string, what: string): GeneralError {
  return new GeneralError(
    `Event '${event}' cannot be sent to other instances: ${path} is ${what} (only JSON and BSON values travel)`,
  );
}

/** @throws GeneralError naming the first value that cannot be stored as BSON and read back the same. */
function check(event: string, value: unknown, path: string, ancestors: Set<object>): void {
  if (value === null || value === undefined) return;
  if (typeof value !== 'object') {
    const type = typeof value;
    if (type === 'string' || type === 'number' || type === 'boolean' || type === 'bigint') return;
    throw refuse(event, path, `a ${type}`);
  }
  const object: object = value;
  if (object instanceof Date || ArrayBuffer.isView(object) || '_bsontype' in object) return;
  if (ancestors.has(object)) throw refuse(event, path, 'a circular reference');
  ancestors.add(object);
  if (Array.isArray(object)) object.forEach((item, i) => check(event, item, `${path}[${i}]`, ancestors));
  else {
    const proto = Object.getPrototypeOf(object) as unknown;
    if (proto !== Object.prototype && proto !== null)
      throw refuse(
        event,
        path,
        `an instance of ${(object.constructor as { name?: string }).name ?? 'a class'}`,
      );
    for (const [key, item] of Object.entries(object)) check(event, item, `${path}.${key}`, ancestors);
  }
  ancestors.delete(object);
}

/**
 * Checks that an event can travel: only JSON and BSON values, and at most `maxBytes` of BSON.
 * @throws GeneralError (500) for a function, symbol, class instance or circular reference, naming its path;
 *   PayloadTooLarge (413) when the event is larger than `maxBytes`.
 */
export function checkPayload(
  event: string,
  record: { data: unknown; context: unknown },
  maxBytes: number,
): void {
  check(event, record.data, 'data', new Set());
  check(event, record.context, 'context', new Set());
  const size = BSON.calculateObjectSize(record, { ignoreUndefined: true });
  if (size > maxBytes)
    throw new PayloadTooLarge(
      `Event '${event}' is ${size} bytes, more than the ${maxBytes} bytes other instances accept (maxEventBytes)`,
    );
}
