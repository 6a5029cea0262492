/**
 * The server parameters that bound the memory of a query, as MongoDB 7.0 declares them in
 * query_knobs.idl: each defaults to 100 MiB, can be read with `getParameter` and changed at runtime with
 * `setParameter`. Each server (engine) holds its own values.
 */
import { integralValue } from './arithmetic.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** One knob: its default in bytes, its C++ type's range, and the validator's lower bound. */
interface KnobSpec {
  /** `int` knobs (`AtomicWord<int>`) hold 32 bits, `long long` ones 64. */
  int32: boolean;
  /** The validator: `gt: 0` (false) or `gte: 0` (true). */
  zeroAllowed: boolean;
}

const HUNDRED_MIB = 100 * 1024 * 1024;

/** The knobs by name, with query_knobs.idl's types and validators. */
const KNOBS = {
  internalQueryMaxPushBytes: { int32: true, zeroAllowed: false },
  internalQueryMaxAddToSetBytes: { int32: true, zeroAllowed: false },
  internalDocumentSourceGroupMaxMemoryBytes: { int32: false, zeroAllowed: false },
  internalQueryMaxBlockingSortMemoryUsageBytes: { int32: true, zeroAllowed: true },
  internalDocumentSourceBucketAutoMaxMemoryBytes: { int32: false, zeroAllowed: false },
  internalDocumentSourceSetWindowFieldsMaxMemoryBytes: { int32: false, zeroAllowed: false },
  internalDocumentSourceGraphLookupMaxMemoryBytes: { int32: false, zeroAllowed: false },
} satisfies Record<string, KnobSpec>;

/** The name of a memory knob. */
export type KnobName = keyof typeof KNOBS;

/** A value for every memory knob, in bytes. */
export type QueryKnobs = Record<KnobName, number>;

/** Every knob at its default, 100 MiB (104857600 bytes). */
export function defaultQueryKnobs(): QueryKnobs {
  const knobs = {} as QueryKnobs;
  for (const name of Object.keys(KNOBS) as KnobName[]) knobs[name] = HUNDRED_MIB;
  return knobs;
}

/** True when `name` is one of the memory knobs. */
export function isKnobName(name: string): name is KnobName {
  return Object.hasOwn(KNOBS, name);
}

/**
 * `value` checked as query_knobs.idl's validator checks a new value for `name`: an integer that fits
 * the knob's type, above 0 (or at least 0 for `internalQueryMaxBlockingSortMemoryUsageBytes`).
 * @throws CommandError BadValue (2) saying what is wrong.
 */
export function knobValue(name: KnobName, value: unknown): number {
  const n = integralValue(value);
  const spec: KnobSpec = KNOBS[name];
  const max = spec.int32 ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER;
  if (n === undefined || Math.abs(n) > max) {
    throw new CommandError(
      ErrorCodes.BadValue,
      `Invalid value for parameter ${name}: expected a ${spec.int32 ? '32' : '64'}-bit integer, found ${String(value)}`,
    );
  }
  if (spec.zeroAllowed ? n < 0 : n <= 0) {
    throw new CommandError(
      ErrorCodes.BadValue,
      `Invalid value for parameter ${name}: ${n} is not ${spec.zeroAllowed ? 'greater than or equal to' : 'greater than'} 0`,
    );
  }
  return n;
}
