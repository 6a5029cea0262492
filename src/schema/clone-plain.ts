/**
 * Copies plain objects and arrays deeply and keeps everything else (ObjectIds, Dates, Buffers) as the
 * same instance, so validation can coerce and fill defaults in the copy without touching the caller's
 * object, and without half-coerced input left behind when validation fails. Keys are defined, not
 * assigned, so an own `__proto__` key (from `JSON.parse`) stays a plain key for the schema to reject.
 */
export function clonePlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clonePlain);
  if (typeof value !== 'object' || value === null) return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(copy, key, {
      value: clonePlain(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
