/**
 * Seeded random choices and the hostile BSON values the wire fuzzer puts in commands: number extremes,
 * Decimal128 NaN and infinities, deprecated types, prototype keys, dotted/dollar/empty names, deep
 * nesting and huge arrays.
 */
import { Binary, Code, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { bsonUndefined, dbPointer, regex, symbol } from './bson-writer.js';

/** A seeded pseudo-random source (mulberry32), so a run is repeated exactly by its seed. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

/** Field names that trip naive object handling: prototype keys, paths, operators, empty. */
export const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '',
  '.',
  'a.b',
  'a..b',
  '.a',
  'a.',
  '$',
  '$a',
  '$$a',
  '$set',
  '$where',
  '$ref',
  '$id',
  '$db',
  '_id',
  '0',
  '-1',
  'a.0',
  'a.$',
  'a.$[]',
  'a.$[x]',
  '\u00e9\u{1F600}',
];

/** Ordinary names, so hostile ones sit beside fields the data has. */
export const PLAIN_KEYS = ['a', 'b', 'c', 'x', 'n', 's', 'arr', 'd', 'a.b', 'a.c', '_id'];

const DECIMALS = [
  'NaN',
  '-NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0E-6176',
  '9.999999999999999999999999999999999E+6144',
  '1E-6176',
  '-1.5',
];

/** One hostile leaf value. */
export function hostileScalar(r: Random): unknown {
  switch (r.int(28)) {
    case 0:
      return r.pick([
        0,
        -0,
        1,
        -1,
        0.5,
        2 ** 31,
        -(2 ** 31) - 1,
        2 ** 53,
        -(2 ** 53) - 2,
        1e308,
        -1e308,
        5e-324,
      ]);
    case 1:
      return r.pick([NaN, Infinity, -Infinity]);
    case 2:
      return new Int32(r.pick([0, -1, 2147483647, -2147483648]));
    case 3:
      return new Double(r.pick([1, -0, NaN, 2 ** 63, Infinity]));
    case 4:
      return r.pick([
        Long.MAX_VALUE,
        Long.MIN_VALUE,
        Long.fromNumber(-1),
        Long.fromNumber(0),
        Long.fromNumber(2 ** 53 + 1),
      ]);
    case 5:
      return Decimal128.fromString(r.pick(DECIMALS));
    case 6:
      return r.pick([
        '',
        'a',
        'x',
        '$a',
        '$$ROOT',
        '$$CURRENT',
        '$$NOW',
        '$$REMOVE',
        '$$nope',
        '$',
        '$$',
        'a.b',
        '.',
        '\u0000',
        'a\u0000b',
        '__proto__',
        'constructor',
        '\uFFFF',
        '\u{1F600}',
        'c',
        'fuzz.c',
      ]);
    case 7:
      return 'x'.repeat(r.pick([1000, 70_000, (17 * 1024 * 1024) / 16]));
    case 8:
      return r.chance(0.5);
    case 9:
      return null;
    case 10:
      return bsonUndefined();
    case 11:
      return r.chance(0.5) ? new MinKey() : new MaxKey();
    case 12:
      return new Timestamp({ t: r.pick([0, 1, 4294967295]), i: r.pick([0, 1, 4294967295]) });
    case 13:
      return new ObjectId();
    case 14:
      return new Date(r.pick([0, -1, 8.64e15, -8.64e15, 253402300800000, -62135596800001]));
    case 15:
      return regex(
        r.pick(['a', '(', '(a+)+$', '\\', '[', 'a{99999}', '']),
        r.pick(['', 'i', 'zz', 'imsxlu', 'iiii', 'g', '\u00e9']),
      );
    case 16:
      return new Code(r.pick(['function(){}', 'this.a', '']));
    case 17:
      return new Code('this.a == 1', { a: r.pick([1, '$x', null]) });
    case 18:
      return new Binary(
        Buffer.alloc(r.pick([0, 3, 16, 17])),
        r.pick([0, 2, 3, 4, 5, 6, 7, 8, 9, 0x80, 0xff]),
      );
    case 19:
      return dbPointer(r.pick(['fuzz.c', '', 'a']));
    case 20:
      return symbol(r.pick(['a', '$a', '']));
    case 21:
      return {
        $ref: r.pick(['c', 1, '']),
        $id: r.pick([1, null, {}]),
        ...(r.chance(0.3) ? { $db: r.pick(['fuzz', 2]) } : {}),
      };
    case 22:
      return {};
    case 23:
      return [];
    case 24:
      return new Date(NaN);
    case 25:
      return r.pick([1, -1, 'hashed', 'text', '2d', '2dsphere', 'wildcard']);
    case 26:
      return r.pick(['$a', '$b', '$arr', '$n', '$s', '$a.b', '$arr.0', '$$ROOT.a']);
    default:
      return r.int(10);
  }
}

/** A document or array nested `depth` levels deep (MongoDB's limits: 100 for stored documents, ~180 for commands). */
export function deepValue(r: Random, depth: number): unknown {
  let value: unknown = r.chance(0.5) ? 1 : hostileScalar(r);
  const arrays = r.int(3);
  for (let i = 0; i < depth; i++) {
    const useArray = arrays === 0 || (arrays === 2 && r.chance(0.5));
    value = useArray
      ? [value]
      : { [r.pick(['a', '$and', '$expr', '__proto__', '$elemMatch', '$not'])]: value };
  }
  return value;
}

/** A huge array: many elements, or a few very wide ones. */
export function hugeArray(r: Random): unknown[] {
  const n = r.pick([10_000, 100_001, 300_000]);
  const fill = r.pick<unknown>([1, 'x', null, { a: 1 }, []]);
  return Array.from({ length: n }, () => fill);
}

/** An object with the given entries, `__proto__` as an own field and not the prototype. */
export function makeDoc(pairs: [string, unknown][]): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const [k, v] of pairs)
    Object.defineProperty(doc, k, { value: v, enumerable: true, writable: true, configurable: true });
  return doc;
}

/** A random hostile value of any shape, nesting up to `budget` levels of documents and arrays. */
export function hostileValue(r: Random, budget = 3): unknown {
  const roll = r.int(20);
  if (roll === 0) return deepValue(r, r.pick([99, 100, 101, 150, 179, 180, 200, 250]));
  if (roll === 1 && r.chance(0.2)) return hugeArray(r);
  if (budget <= 0 || roll < 12) return hostileScalar(r);
  const n = r.int(4);
  if (roll < 16) return Array.from({ length: n }, () => hostileValue(r, budget - 1));
  return makeDoc(
    Array.from({ length: n }, () => [
      r.chance(0.5) ? r.pick(HOSTILE_KEYS) : r.pick(PLAIN_KEYS),
      hostileValue(r, budget - 1),
    ]),
  );
}
