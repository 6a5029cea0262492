/**
 * The memory an aggregation or a sorted `find` may use, as MongoDB 7.0 bounds it: the query knobs of the
 * server that runs it (query-knobs.ts) and the command's `allowDiskUse` (true unless the command says
 * false, as in 6.0+). The engine runs a pipeline synchronously, so the limits of the command running now
 * are held here for the stages to read, instead of being threaded through mingo's options.
 *
 * Sizes are approximations of MongoDB's `Value::getApproximateSize`: 16 bytes for any value (the size of
 * a `Value`), plus the length of a string (UTF-16 code units), plus the BSON size of a document, array or
 * binary. A value is measured once, when a stage takes it in, and a part it shares is measured once
 * (bson-size.ts), so a value built to share its parts is measured in the time its memory takes.
 */
import { Binary } from 'bson';
import { bsonValueSize } from './bson-size.js';
import { defaultQueryKnobs } from './query-knobs.js';
import type { KnobName, QueryKnobs } from './query-knobs.js';
import { isPlainObject } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** What bounds the memory of the command running now. */
export interface MemoryLimits {
  knobs: QueryKnobs;
  /** False only when the command asked `allowDiskUse: false`: blocking stages then stop at their knob. */
  allowDiskUse: boolean;
}

const VALUE_BYTES = 16;

let active: MemoryLimits = { knobs: defaultQueryKnobs(), allowDiskUse: true };

/** The limits of the command running now (the defaults outside any). */
export function memoryLimits(): MemoryLimits {
  return active;
}

/**
 * Runs `fn` under `limits`; `undefined` keeps the ones in force (a view or a `$lookup` read inside an
 * aggregation runs under the aggregation's).
 */
export function withMemoryLimits<T>(limits: MemoryLimits | undefined, fn: () => T): T {
  if (!limits) return fn();
  const previous = active;
  active = limits;
  try {
    return fn();
  } finally {
    active = previous;
  }
}

/** The approximate bytes `value` takes in memory (see the file comment). */
export function approximateSize(value: unknown): number {
  if (typeof value === 'string') return VALUE_BYTES + value.length;
  // `{ v: value }` adds 8 bytes to the value's own: a length, a type byte, `v`, two NULs.
  if (Array.isArray(value) || isPlainObject(value) || value instanceof Binary)
    return VALUE_BYTES + 8 + bsonValueSize(value);
  return VALUE_BYTES;
}

/**
 * A running total of the bytes a stage holds, checked against the knob `knob` as values arrive.
 * `exceeded(used, limit)` builds the stage's error.
 */
export class MemoryTracker {
  private used = 0;
  readonly limit: number;

  constructor(
    knob: KnobName,
    private readonly exceeded: (used: number, limit: number) => CommandError,
  ) {
    this.limit = active.knobs[knob];
  }

  /** Counts `bytes` more. @throws CommandError from `exceeded` once the total passes the limit. */
  add(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) throw this.exceeded(this.used, this.limit);
  }
}

/**
 * A tracker for a blocking stage, which MongoDB 7.0 spills to disk when `allowDiskUse` is true: then the
 * embedded database keeps it in memory and counts nothing (undefined).
 */
export function blockingTracker(
  knob: KnobName,
  exceeded: (used: number, limit: number) => CommandError,
): MemoryTracker | undefined {
  return active.allowDiskUse ? undefined : new MemoryTracker(knob, exceeded);
}

/** 292 with the sorter's message (sorter.cpp), used by `$sort`, `find`'s sort and `$bucketAuto`. */
export function sortExceeded(_used: number, limit: number): CommandError {
  return new CommandError(
    ErrorCodes.QueryExceededMemoryLimitNoDiskUseAllowed,
    `Sort exceeded memory limit of ${limit} bytes, but did not opt in to external sorting.`,
  );
}
