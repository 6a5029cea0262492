import { BadRequest } from '../errors/index.js';

/** Deepest nesting of objects and arrays `clonePlain` copies; deeper input is a client error. */
export const MAX_CLONE_DEPTH = 200;

/**
 * Copies plain objects and arrays deeply and keeps everything else (ObjectIds, Dates, Buffers) as the
 * same instance, so validation can coerce and fill defaults in the copy without touching the caller's
 * object, and without half-coerced input left behind when validation fails. Keys are defined, not
 * assigned, so an own `__proto__` key (from `JSON.parse`) stays a plain key for the schema to reject.
 *
 * Throws `BadRequest` (400) for input nested deeper than `MAX_CLONE_DEPTH` levels (a hostile JSON
 * body of `[[[[…]]]]` would otherwise overflow the stack and answer 500).
 */
export function clonePlain(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_CLONE_DEPTH) {
    throw new BadRequest(`Input is nested too deeply (more than ${MAX_CLONE_DEPTH} levels)`);
  }
  if (Array.isArray(value)) return value.map((item) => clonePlain(item, depth + 1));
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(copy, key, {
      value: clonePlain(item, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
