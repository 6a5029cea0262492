import type { HookContext } from '../core/index.js';
import { isRecord } from './declarations.js';

/** A hook usable as an after hook (`hook(context)`) and as an around hook (`hook(context, next)`). */
export type AfterOrAroundHook = (context: HookContext, next?: () => Promise<void>) => Promise<void>;

function omit(item: unknown, fields: readonly string[]): unknown {
  if (!isRecord(item)) return item;
  const copy: Record<string, unknown> = { ...item };
  for (const field of fields) delete copy[field];
  return copy;
}

/** `value` without `fields`: one record, an array of records, or a paginated `{ data }` result. */
export function omitProtected(value: unknown, fields: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => omit(item, fields));
  if (isRecord(value) && Array.isArray(value.data)) {
    return { ...value, data: value.data.map((item) => omit(item, fields)) };
  }
  return omit(value, fields);
}

/**
 * An after (or around) hook that sets `context.dispatch` — what the transports send to clients — to
 * the result (or an earlier `dispatch`) without `fields`, e.g. `protect('password')`. Works for one
 * record, arrays and paginated `{ data }` results. `context.result` is untouched, so internal callers
 * (like the `local` strategy) still see every field.
 */
export function protect(...fields: string[]): AfterOrAroundHook {
  const apply = (context: HookContext): void => {
    const source = context.dispatch !== undefined ? context.dispatch : context.result;
    if (source === undefined) return;
    context.dispatch = omitProtected(source, fields);
  };
  return async (context, next) => {
    if (next !== undefined) await next();
    apply(context);
  };
}
