/**
 * The server parameters that bound the memory of a query, as MongoDB 7.0 declares them in
 * query_knobs.idl: each defaults to 100 MiB (the `$densify` document count to 500,000), can be read with
 * `getParameter` and changed at runtime with `setParameter`. Each server (engine) holds its own values.
 */
import { integralValue } from './arithmetic.js';
import { MAX_BSON_INTERNAL_SIZE } from './limits.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** One knob: its C++ type's range, the validator's lower bound, and its default when not 100 MiB. */
interface KnobSpec {
  /** `int` knobs (`AtomicWord<int>`) hold 32 bits, `long long` ones 64. */
  int32: boolean;
  /** The least value the validator accepts: 1 for `gt: 0`, 0 for `gte: 0`. */
  min: number;
  default?: number;
}

const HUNDRED_MIB = 100 * 1024 * 1024;

/** The knobs by name, with query_knobs.idl's types and validators. */
const KNOBS = {
  internalQueryMaxPushBytes: { int32: true, min: 1 },
  internalQueryMaxAddToSetBytes: { int32: true, min: 1 },
  internalQueryMaxRangeBytes: { int32: true, min: 1 },
  internalDocumentSourceGroupMaxMemoryBytes: { int32: false, min: 1 },
  internalQueryMaxBlockingSortMemoryUsageBytes: { int32: true, min: 0 },
  internalDocumentSourceBucketAutoMaxMemoryBytes: { int32: false, min: 1 },
  internalDocumentSourceSetWindowFieldsMaxMemoryBytes: { int32: false, min: 1 },
  internalDocumentSourceGraphLookupMaxMemoryBytes: { int32: false, min: 1 },
  internalQueryFacetBufferSizeBytes: { int32: true, min: 1 },
  internalQueryFacetMaxOutputDocSizeBytes: { int32: false, min: 1 },
  internalLookupStageIntermediateDocumentMaxSizeBytes: { int32: false, min: MAX_BSON_INTERNAL_SIZE },
  internalDocumentSourceDensifyMaxMemoryBytes: { int32: true, min: 1 },
  internalQueryMaxAllowedDensifyDocs: { int32: true, min: 1, default: 500_000 },
} satisfies Record<string, KnobSpec>;

/** The name of a memory knob. */
export type KnobName = keyof typeof KNOBS;

/** A value for every memory knob, in bytes. */
export type QueryKnobs = Record<KnobName, number>;

/** Every knob at its default: 100 MiB (104857600 bytes), `internalQueryMaxAllowedDensifyDocs` 500,000. */
export function defaultQueryKnobs(): QueryKnobs {
  const knobs = {} as QueryKnobs;
  for (const name of Object.keys(KNOBS) as KnobName[]) {
    const spec: KnobSpec = KNOBS[name];
    knobs[name] = spec.default ?? HUNDRED_MIB;
  }
  return knobs;
}

/** True when `name` is one of the memory knobs. */
export function isKnobName(name: string): name is KnobName {
  return Object.hasOwn(KNOBS, name);
}

/**
 * `value` checked as query_knobs.idl's validator checks a new value for `name`: an integer that fits
 * the knob's type, above 0 (at least 0 for `internalQueryMaxBlockingSortMemoryUsageBytes`, at least
 * 16793600 for `internalLookupStageIntermediateDocumentMaxSizeBytes`).
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
  if (n < spec.min) {
    throw new CommandError(
      ErrorCodes.BadValue,
      `Invalid value for parameter ${name}: ${n} is not ${spec.min === 1 ? 'greater than 0' : `greater than or equal to ${spec.min}`}`,
    );
  }
  return n;
}
