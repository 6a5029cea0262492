/**
 * What a free-form date/time string has said so far while its tokens are read, and how a token's text
 * is read into it. It follows the fields of timelib's `timelib_time` that `$dateFromString` depends on:
 * each of year … second is unset until a token sets it (MongoDB then reports missing ones), a date or a
 * time may be given once only ("Double date specification"), a zone once only, and day names, `tomorrow`,
 * ISO weeks and `@` timestamps are kept as relative parts applied after parsing, as timelib_update_ts does.
 */
import { monthNumber, processYear } from './date-string-lexicon.js';
import { zoneFromToken } from './date-string-zone.js';
import type { ZoneInString } from './date-string-zone.js';

/** The fields read from a free-form string so far; undefined is timelib's TIMELIB_UNSET. */
export interface FreeState {
  y?: number;
  m?: number;
  d?: number;
  h?: number;
  i?: number;
  s?: number;
  /** Microseconds. */
  us?: number;
  haveDate: boolean;
  /** 0, 1 once a time is read, 2 once a year followed it (`Jul 4 10:00:00 2017`). */
  haveTime: number;
  /** How many standalone zone tokens were read. */
  zones: number;
  zone?: ZoneInString;
  /** Days, seconds and microseconds added after parsing (`tomorrow`, ISO weeks, `@` timestamps). */
  relDays: number;
  relSeconds: number;
  relUs: number;
  /** A day name's weekday (0 is Sunday): the date moves forward to it. */
  weekday?: number;
}

/** Why a token cannot be read: timelib's error text, or `unsupported` for a form this parser refuses. */
export class TokenFailure extends Error {
  constructor(
    readonly detail: string,
    readonly unsupported = false,
  ) {
    super(detail);
  }
}

/** One form of timelib's scanner: its place in timelib's order, the patterns it matches, what it sets. */
export interface Form {
  /** timelib's rule order: of two matches of one length, the lower rank is read. */
  rank: number;
  name: string;
  /** Sticky patterns; the form's match is the longest of theirs. */
  patterns: RegExp[];
  read(st: FreeState, token: string): void;
}

/** A form from its rank, name (timelib's), pattern sources and action. */
export const form = (rank: number, name: string, sources: string[], read: Form['read']): Form => ({
  rank,
  name,
  patterns: sources.map((source) => new RegExp(source, 'y')),
  read,
});

/** An action refusing a form this server does not read: `what` "are not read by this server". */
export const refuse = (what: string) => (): never => {
  throw new TokenFailure(`${what} are not read by this server`, true);
};

/** A fresh state: nothing read. */
export const newState = (): FreeState => ({
  haveDate: false,
  haveTime: 0,
  zones: 0,
  relDays: 0,
  relSeconds: 0,
  relUs: 0,
});

/** Marks a date read. @throws TokenFailure "Double date specification" when one was read already. */
export function haveDate(st: FreeState): void {
  if (st.haveDate) throw new TokenFailure('Double date specification');
  st.haveDate = true;
}

/** Marks a time read, its fields zeroed. @throws TokenFailure "Double time specification" on a second one. */
export function haveTime(st: FreeState): void {
  if (st.haveTime) throw new TokenFailure('Double time specification');
  st.haveTime = 1;
  st.h = st.i = st.s = st.us = 0;
}

/** Forgets a time read (a day name or `today` sets the time to midnight). */
export function unhaveTime(st: FreeState): void {
  st.haveTime = 0;
  st.h = st.i = st.s = st.us = 0;
}

/**
 * Sets the zone a zone token names.
 * @param standalone a zone token of its own (counted: a second one is an error), not the tail of a form
 * such as `…T10:00:00.5+02:00`, which timelib does not count.
 * @throws TokenFailure "Double timezone specification", or MongoDB's message for an unknown zone.
 */
export function setZone(st: FreeState, text: string, standalone: boolean): void {
  if (standalone && st.zones++ > 0) throw new TokenFailure('Double timezone specification');
  const zone = zoneFromToken(text);
  // MongoDB words timelib's "unknown zone" error itself: it never loads zone identifiers from strings.
  if (zone === 'unknown')
    throw new TokenFailure('passing a time zone identifier as part of the string is not allowed');
  st.zone = zone;
}

/**
 * Reads a token's text left to right as timelib's actions do: each number skips what is not a digit
 * before it, so one reader serves every form whose shape its pattern already checked.
 */
export class TokenReader {
  private pos = 0;

  constructor(readonly text: string) {}

  /** The next character (empty at the end). */
  peek(): string {
    return this.text[this.pos] ?? '';
  }

  /** What is left. */
  rest(): string {
    return this.text.slice(this.pos);
  }

  /** The digits of the next number, at most `max` of them; empty when no digit is left. */
  digits(max: number): string {
    while (this.pos < this.text.length && !/[0-9]/.test(this.text[this.pos]!)) this.pos++;
    const found = new RegExp(`[0-9]{1,${max}}`, 'y');
    found.lastIndex = this.pos;
    const run = found.exec(this.text)?.[0] ?? '';
    this.pos += run.length;
    return run;
  }

  /** The next number of at most `max` digits; undefined when none is left. */
  nr(max: number): number | undefined {
    const run = this.digits(max);
    return run === '' ? undefined : Number(run);
  }

  /** The next number of at most `max` digits, with the signs before it applied (`-2017`). */
  signed(max: number): number | undefined {
    while (this.pos < this.text.length && !/[0-9+-]/.test(this.text[this.pos]!)) this.pos++;
    let sign = 1;
    while (this.peek() === '+' || this.peek() === '-') if (this.text[this.pos++] === '-') sign = -sign;
    const value = this.nr(max);
    return value === undefined ? undefined : sign * value;
  }

  /** The next year of at most `max` digits, two-digit ones mapped as timelib maps them. */
  year(max: number): number | undefined {
    const run = this.digits(max);
    return run === '' ? undefined : processYear(run);
  }

  /** Skips a day's `st`/`nd`/`rd`/`th` (any case), unless a blank comes first. */
  skipDaySuffix(): void {
    if (/^(?:st|nd|rd|th)/i.test(this.rest())) this.pos += 2;
  }

  /** The month named next, after blanks and `-./`; 0 when the word names none. */
  month(): number {
    while (/[ \t\-./]/.test(this.peek())) this.pos++;
    const word = /^[A-Za-z]*/.exec(this.rest())?.[0] ?? '';
    this.pos += word.length;
    return monthNumber(word);
  }

  /** Microseconds of the fraction next (`.5` is 500000), its separator (`.` or `:`) included. */
  fraction(): number {
    while (this.pos < this.text.length && !/[.:0-9]/.test(this.text[this.pos]!)) this.pos++;
    const run = /^[.:0-9]*/.exec(this.rest())?.[0] ?? '';
    this.pos += run.length;
    return Number(
      run
        .slice(1)
        .replace(/[^0-9]/g, '')
        .slice(0, 6)
        .padEnd(6, '0'),
    );
  }

  /** The hours `am`/`pm` next add to `hour` (12 am is 0, 12 pm stays 12). */
  meridian(hour: number): number {
    const letter = /[AaPp]/.exec(this.rest())?.[0] ?? 'a';
    if (letter === 'a' || letter === 'A') return hour === 12 ? -12 : 0;
    return hour === 12 ? 0 : 12;
  }
}
