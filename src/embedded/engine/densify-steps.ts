/**
 * The documents `$densify` adds, stepped as MongoDB 7.0 steps them (document_source_densify.cpp,
 * `DocumentSourceInternalDensify`): each new value is the previous one plus the step (`DensifyValue::
 * increment`), never the range start plus n steps; dates step with `$dateAdd` in UTC (date-arithmetic.ts),
 * so a month after 31 January is the last day of February and the months after it keep that day. A
 * document whose value is not on the step passes without moving the step. mingo added months without
 * clamping (31 January + 1 month was 3 March), compared int64 and decimal values with JavaScript
 * operators and required partition values to be strings. The memory rules are MongoDB 7.0's: the input
 * sort is a blocking sort (sort.ts), the partitions' last values count against
 * `internalDocumentSourceDensifyMaxMemoryBytes` (6007200, no spilling), and the documents added against
 * `internalQueryMaxAllowedDensifyDocs` (5897900).
 */
import { add, numberKind, subtract } from './arithmetic.js';
import { compareBson } from './compare.js';
import { dateAdd } from './date-arithmetic.js';
import { checkSortMemory, sortByFields } from './sort.js';
import { approximateSize, memoryLimits, MemoryTracker } from './memory-limits.js';
import { cloneValue, getPath, keyOf, setOwn } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

/** `$densify`'s specification, already checked by densify-stage.ts. */
export interface DensifySpec {
  field: string;
  partitionByFields?: string[];
  range: { step: unknown; unit?: string; bounds: 'full' | 'partition' | [unknown, unknown] };
}

const utc = (): number => 0;

function fail(code: number, message: string): never {
  throw new CommandError(code, message);
}

/** MongoDB 7.0's error once the partition table passes its limit (document_source_densify.h). */
function densifyExceeded(_used: number, limit: number): CommandError {
  return new CommandError(6007200, `$densify exceeded memory limit of ${limit}`);
}

const less = (a: unknown, b: unknown): boolean => compareBson(a, b) < 0;
const same = (a: unknown, b: unknown): boolean => compareBson(a, b) === 0;

/** Sets the dotted `path` of `doc`, creating the documents on the way. */
function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = doc;
  for (const part of parts.slice(0, -1)) {
    if (typeof cur[part] !== 'object' || cur[part] === null) setOwn(cur, part, {});
    cur = cur[part] as Doc;
  }
  setOwn(cur, parts[parts.length - 1]!, value);
}

/** One partition's state: `current` the last value on the step, `last` the value MongoDB's table holds. */
interface Partition {
  fields: Doc;
  current: unknown;
  last: unknown;
}

/**
 * The sorted input with the added documents, in the order MongoDB's stage returns them.
 * @throws CommandError 5733201 (a value neither a number nor a date), 6053600 (a number with a unit or a
 *   date without), 5897900 (more added documents than `internalQueryMaxAllowedDensifyDocs`, 500,000 by
 *   default), 6007200 (partitions past `internalDocumentSourceDensifyMaxMemoryBytes`), 292 (the sort,
 *   with `allowDiskUse: false`).
 */
export function densify(items: Doc[], spec: DensifySpec): Doc[] {
  const { field, range } = spec;
  const { step, unit, bounds } = range;
  const partitioned = (spec.partitionByFields ?? []).length > 0;
  const byFields = spec.partitionByFields ?? [];
  const increment = (v: unknown): unknown =>
    v instanceof Date ? new Date(dateAdd(v.getTime(), unit!, Number(step), utc)) : add([v, step]);
  const decrement = (v: unknown): unknown =>
    v instanceof Date ? new Date(dateAdd(v.getTime(), unit!, -Number(step), utc)) : subtract(v, step);
  /** `isOnStepRelativeTo`: months, quarters and years are stepped through, other steps divide. */
  const onStep = (v: unknown, base: unknown): boolean => {
    if (!(v instanceof Date)) return Number(subtract(v, base)) % Number(step) === 0;
    if (unit === 'month' || unit === 'quarter' || unit === 'year') {
      let stepped = base;
      while (less(stepped, v)) stepped = increment(stepped);
      return same(stepped, v);
    }
    return (v.getTime() - (base as Date).getTime()) % dateAdd(0, unit!, Number(step), utc) === 0;
  };
  const valueOf = (doc: Doc): unknown => {
    const v = getPath(doc, field);
    if (v === undefined || v === null) return undefined;
    const isDate = v instanceof Date;
    if (!isDate && numberKind(v) === undefined) fail(5733201, 'Densify field type must be numeric or a date');
    if (isDate !== (unit !== undefined)) {
      fail(
        6053600,
        isDate
          ? 'Encountered date densify value in collection when step does not have a date unit.'
          : 'Encountered numeric densify value in collection when step has a date unit.',
      );
    }
    return v;
  };

  const out: Doc[] = [];
  let added = 0;
  const maxAdded = memoryLimits().knobs.internalQueryMaxAllowedDensifyDocs;
  const emit = (partition: Partition, value: unknown): void => {
    if (++added > maxAdded) {
      fail(
        5897900,
        `Generated ${added} documents in $densify, which is over the limit of ${maxAdded}. Increase the 'internalQueryMaxAllowedDensifyDocs' parameter to allow more generated documents`,
      );
    }
    const doc = cloneValue(partition.fields);
    setPath(doc, field, value);
    out.push(doc);
  };
  /** MongoDB's DocGenerator: `start`, then each step after it below `end`; the last one emitted. */
  const generate = (partition: Partition, start: unknown, end: unknown): unknown => {
    let value = start;
    for (;;) {
      emit(partition, value);
      const next = increment(value);
      if (!less(next, end)) return value;
      value = next;
    }
  };

  const partitions = new Map<string, Partition>();
  const memory = new MemoryTracker('internalDocumentSourceDensifyMaxMemoryBytes', densifyExceeded);
  const partitionOf = (doc: Doc): [Partition, boolean] => {
    const values = byFields.map((path) => getPath(doc, path));
    const id = keyOf(values);
    const found = partitions.get(id);
    if (found) return [found, false];
    const fields: Doc = {};
    byFields.forEach((path, i) => {
      if (values[i] !== undefined) setPath(fields, path, values[i]);
    });
    const partition: Partition = { fields, current: undefined, last: undefined };
    partitions.set(id, partition);
    // MongoDB keeps a table only with partitions: its key and the partition's last value, whose size
    // never changes (a number or a date).
    if (partitioned) memory.add(approximateSize(fields) + approximateSize(getPath(doc, field)));
    return [partition, true];
  };

  /** `handleNeedGen` (full and partition bounds): fills the gap up to `v`, moving the step past it. */
  const fillTo = (partition: Partition, v: unknown): void => {
    let next = increment(partition.current);
    if (less(next, v)) {
      partition.current = generate(partition, next, v);
      partition.last = partition.current;
      next = increment(partition.current);
    }
    if (same(next, v)) partition.current = partition.last = v;
  };

  const sortFields = (bounds === 'full' ? [field] : [...byFields, field]).map((path) => ({
    path,
    descending: false,
  }));
  checkSortMemory(items);
  const sorted = sortByFields(items, sortFields);
  let globalMin: unknown;
  let globalMax: unknown;
  let lastCurrent: unknown;
  for (const doc of sorted) {
    const v = valueOf(doc);
    if (v === undefined) {
      out.push(doc);
      continue;
    }
    const [partition, isNew] = partitionOf(doc);
    if (isNew) partition.last = v;
    if (bounds === 'full' || bounds === 'partition') {
      const first = globalMin === undefined;
      if (first) globalMin = v;
      globalMax = v;
      if (isNew && (first || bounds === 'partition')) partition.current = v;
      else {
        // A partition first seen after the first document starts from the smallest value ('full').
        partition.current = isNew ? decrement(globalMin) : partition.last;
        fillTo(partition, v);
      }
      lastCurrent = partition.current;
    } else {
      if (isNew) partition.current = decrement(bounds[0]);
      else if (partitioned) partition.current = partition.last;
      explicitStep(partition, v, bounds[0], bounds[1]);
    }
    out.push(doc);
  }

  /** `handleNeedGenExplicit` and `processDocAboveExplicitMinBound`: a value against the range. */
  function explicitStep(partition: Partition, v: unknown, lower: unknown, upper: unknown): void {
    if (less(v, lower)) {
      partition.last = v;
      return;
    }
    const next = increment(partition.current);
    if (same(v, lower) || same(v, next)) {
      partition.current = partition.last = v;
      return;
    }
    const inside = less(v, upper);
    if (inside && less(v, next)) return;
    if (!inside && !less(next, upper)) {
      partition.current = next;
      partition.last = v;
      return;
    }
    partition.current = partition.last = generate(partition, next, inside ? v : upper);
    if (onStep(v, partition.current)) partition.current = partition.last = v;
  }

  // After the last document: the rest of the range (handleSourceExhausted).
  if (Array.isArray(bounds)) {
    const [lower, upper] = bounds;
    if (!partitioned) {
      const partition = partitions.get(keyOf([])) ?? { fields: {}, current: undefined, last: undefined };
      if (partition.current === undefined) generate(partition, lower, upper);
      else if (less(increment(partition.current), upper))
        generate(partition, increment(partition.current), upper);
    } else {
      for (const partition of partitions.values()) {
        let start = increment(partition.last);
        if (!less(start, upper)) continue;
        if (less(start, lower)) start = lower;
        generate(partition, start, upper);
      }
    }
  } else if (bounds === 'full' && partitioned && globalMax !== undefined) {
    const end = onStep(globalMax, lastCurrent) ? increment(globalMax) : globalMax;
    for (const partition of partitions.values()) {
      const start = increment(partition.last);
      if (less(start, end)) generate(partition, start, end);
    }
  }
  return out;
}
