import { expect } from 'vitest';

/** Prototypes a polluted merge would write to. */
const prototypes = [Object.prototype, Array.prototype, Function.prototype, String.prototype];

/** A record of the own property names of the built-in prototypes, to compare after hostile input. */
export function snapshotPrototypes(): string[][] {
  return prototypes.map((proto) => Object.getOwnPropertyNames(proto).sort());
}

/** Fails when any built-in prototype gained or lost a property since `before`, or a plain object sees one. */
export function expectPrototypesUnchanged(before: string[][]): void {
  expect(snapshotPrototypes()).toEqual(before);
  const probe = {} as Record<string, unknown>;
  for (const key of ['polluted', 'isAdmin', 'admin', 'x', 'a', '$where', 'toString2']) {
    expect(probe[key], `Object.prototype.${key}`).toBeUndefined();
  }
}

/** The keys a hostile client uses to reach a prototype. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Every own key of `value` at every depth, with its path (arrays included). */
export function ownKeysDeep(value: unknown, path = ''): { key: string; path: string }[] {
  if (typeof value !== 'object' || value === null) return [];
  const found: { key: string; path: string }[] = [];
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string') continue;
    const child = `${path}.${key}`;
    found.push({ key, path: child });
    found.push(...ownKeysDeep((value as Record<string, unknown>)[key], child));
  }
  return found;
}
