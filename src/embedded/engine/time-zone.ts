/**
 * The `timezone` argument of MongoDB's date operators: an Olson name (`America/New_York`, `GMT`), whose
 * UTC offset at each instant `Intl` gives, or a fixed `±HH`, `±HHMM` or `±HH:MM` offset.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { bsonTypeName } from './values.js';
import { CommandError } from '../errors.js';

/** A time zone: its UTC offset, in seconds, at an instant (ms since the epoch). */
export type Zone = (ms: number) => number;

/** Coordinated Universal Time, the zone of an operator without `timezone`. */
export const UTC: Zone = () => 0;
const zones = new Map<string, Zone>();

/** The offset forms MongoDB accepts: `±HH`, `±HHMM` and `±HH:MM`. */
const OFFSET = /^([+-])(\d\d)(?:(\d\d)|:(\d\d))?$/;
/** `Intl`'s `longOffset` names: `GMT`, `GMT-04:00`, or with seconds for local mean times (`GMT-04:56:02`). */
const GMT_OFFSET = /^GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/;

function seconds(sign: string | undefined, h = '0', m = '0', s = '0'): number {
  return (sign === '-' ? -1 : 1) * (Number(h) * 3600 + Number(m) * 60 + Number(s));
}

/** The zone a `timezone` string names, or code 40485 when it names none. */
function parseZone(spec: string): Zone {
  const offset = OFFSET.exec(spec);
  if (offset) {
    const fixed = seconds(offset[1], offset[2], offset[3] ?? offset[4]);
    return () => fixed;
  }
  let intl: Intl.DateTimeFormat | undefined;
  try {
    if (!/^[+-]/.test(spec))
      intl = new Intl.DateTimeFormat('en-US', { timeZone: spec, timeZoneName: 'longOffset' });
  } catch {
    // not an IANA name
  }
  // Intl ignores case (`america/new_york`), MongoDB's zone table does not; aliases resolve to other names.
  const resolved = intl?.resolvedOptions().timeZone;
  if (!intl || (resolved !== spec && resolved?.toLowerCase() === spec.toLowerCase())) {
    throw new CommandError(40485, `unrecognized time zone identifier: "${spec}"`);
  }
  return (ms) => {
    const name = intl.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? '';
    const m = GMT_OFFSET.exec(name);
    return m ? seconds(m[1], m[2], m[3], m[4]) : 0;
  };
}

/**
 * The zone an operator's `timezone` argument gives: UTC when there is none, `null` (the operator then
 * returns null) when it evaluates to null or missing. Not a string: code 40517.
 */
export function zoneOf(obj: unknown, spec: unknown, options: Options): Zone | null {
  if (spec === undefined) return UTC;
  const name = evalExpr(obj, spec, options);
  if (name === null || name === undefined) return null;
  if (typeof name !== 'string')
    throw new CommandError(40517, `timezone must evaluate to a string, found ${bsonTypeName(name)}`);
  let zone = zones.get(name);
  if (!zone) zones.set(name, (zone = parseZone(name)));
  return zone;
}

/**
 * The instant (ms since the epoch) at which the clocks of `zone` read `wallMs` (a local date and time
 * written as if it were UTC), found as timelib finds it: the offset in force at the wall time read as UTC,
 * then the offset in force at the instant that gives.
 */
export function wallToInstant(wallMs: number, zone: Zone): number {
  const first = wallMs - zone(wallMs) * 1000;
  return wallMs - zone(first) * 1000;
}
