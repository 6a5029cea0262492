/**
 * Zones named inside a date/time string (`2017-07-14T12:02:44Z`, `… GMT+02:00`, `…+0330`, `… EST`, `… A`),
 * read as timelib reads them for `$dateFromString`: a numeric offset, or an abbreviation of timelib's table
 * (the common ones here) or a military letter. MongoDB's tests (jstests/aggregation/expressions/
 * date_from_string.js) give the offsets of `CEST`, `EST`, `PDT`, `BST` and the letters `A`, `L`, `P`, `Z`;
 * the Australian and Alaskan ones are the first entries of timelib's timezonemap.h for those names (the
 * entry timelib_lookup_abbr takes). A name timelib knows but this table lacks fails here (241).
 */

/** A zone a string names: a numeric offset (`+02:00`) or an abbreviation (`Z`, `EST`). */
export interface ZoneInString {
  kind: 'offset' | 'abbreviation';
  /** Seconds east of UTC. */
  seconds: number;
  /** As MongoDB's messages name it (an abbreviation in upper case). */
  text: string;
}

const HOUR = 3600;
/** Zone abbreviations read here (a few of timelib's), in seconds east of UTC. */
const ABBREVIATIONS = new Map<string, number>([
  ...['Z', 'UTC', 'GMT', 'UT', 'WET'].map((name): [string, number] => [name, 0]),
  ['BST', HOUR],
  ['CET', HOUR],
  ['WEST', HOUR],
  ['CEST', 2 * HOUR],
  ['EET', 2 * HOUR],
  ['EEST', 3 * HOUR],
  ['JST', 9 * HOUR],
  ['EST', -5 * HOUR],
  ['EDT', -4 * HOUR],
  ['CST', -6 * HOUR],
  ['CDT', -5 * HOUR],
  ['MST', -7 * HOUR],
  ['MDT', -6 * HOUR],
  ['PST', -8 * HOUR],
  ['PDT', -7 * HOUR],
  ['AKST', -9 * HOUR],
  ['AKDT', -8 * HOUR],
  ['AWST', 8 * HOUR],
  ['AEST', 10 * HOUR],
  ['AEDT', 11 * HOUR],
]);

/** A military zone letter (A–I, K–M east, N–Y west) in seconds east of UTC, as MongoDB's tests read them. */
function military(letter: string): number | undefined {
  if (letter.length !== 1 || letter === 'J' || letter < 'A' || letter > 'Y') return undefined;
  if (letter <= 'I') return (letter.charCodeAt(0) - 64) * HOUR;
  if (letter <= 'M') return (letter.charCodeAt(0) - 65) * HOUR;
  return -(letter.charCodeAt(0) - 77) * HOUR;
}

const ZONE = /\s*(?:(?:GMT|UTC)?([+-])(\d{1,2})(?::?(\d{2}))?|([A-Za-z]+))/y;

/**
 * The zone a format's `%z` reads at `pos` of `text` (after optional spaces) and where it ends; `unknownAt`
 * where a name starts that is no zone known here; undefined when no zone starts there. (Strings without a
 * format read their zones with {@link zoneFromToken}.)
 */
export function readZone(
  text: string,
  pos: number,
): { zone: ZoneInString; end: number } | { unknownAt: number } | undefined {
  ZONE.lastIndex = pos;
  const m = ZONE.exec(text);
  if (!m) return undefined;
  const end = ZONE.lastIndex;
  if (m[1]) {
    const seconds = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * HOUR + Number(m[3] ?? 0) * 60);
    return { zone: { kind: 'offset', seconds, text: m[0].trim() }, end };
  }
  const word = m[4]!.toUpperCase();
  const seconds = ABBREVIATIONS.get(word) ?? military(word);
  if (seconds === undefined) return { unknownAt: end - word.length };
  return { zone: { kind: 'abbreviation', seconds, text: word }, end };
}

/** Seconds of a `[0-9:]` run after a sign, by its length as timelib_parse_tz_cor reads it; undefined if none. */
function offsetSeconds(run: string): number | undefined {
  const n = (from: number, to?: number): number => parseInt(run.slice(from, to), 10) || 0;
  switch (run.length) {
    case 1:
    case 2:
      return n(0) * HOUR; // H, HH
    case 3:
    case 4:
      if (run[1] === ':') return n(0, 1) * HOUR + n(2) * 60; // H:M, H:MM
      if (run[2] === ':') return n(0, 2) * HOUR + n(3) * 60; // HH:M
      return Math.trunc(n(0) / 100) * HOUR + (n(0) % 100) * 60; // HMM, HHMM
    case 5:
      return run[2] === ':' ? n(0, 2) * HOUR + n(3) * 60 : undefined; // HH:MM
    case 6:
      return n(0, 2) * HOUR + n(2, 4) * 60 + n(4); // HHMMSS
    case 8:
      return run[2] === ':' && run[5] === ':' ? n(0, 2) * HOUR + n(3, 5) * 60 + n(6) : undefined;
    default:
      return undefined;
  }
}

/**
 * The zone a zone token of a free-form string names, read as timelib_parse_zone reads it: spaces and `(`
 * skipped, `GMT` dropped before a sign, then a signed offset (`+5`, `-0530`, `+05:30`, `+053000`) or an
 * abbreviation (`UTC`, `EST`, `Z`, `(CEST)`), case aside.
 * @returns the zone, or `unknown` for a name or offset no zone is known by (MongoDB then fails with 241:
 * "passing a time zone identifier as part of the string is not allowed").
 */
export function zoneFromToken(token: string): ZoneInString | 'unknown' {
  let text = token.replace(/^[ \t(]+/, '');
  if (/^GMT[+-]/.test(text)) text = text.slice(3);
  const sign = text[0];
  if (sign === '+' || sign === '-') {
    const run = /^[0-9:]*/.exec(text.slice(1))?.[0] ?? '';
    const seconds = offsetSeconds(run);
    if (seconds === undefined) return 'unknown';
    return { kind: 'offset', seconds: sign === '-' ? -seconds : seconds, text: token.trim() };
  }
  // timelib_lookup_abbr takes letters, digits and `/_-+` as the name; `)` ends it.
  const word = (/^[A-Za-z0-9/_+-]*/.exec(text)?.[0] ?? '').toUpperCase();
  const seconds = ABBREVIATIONS.get(word) ?? military(word);
  return seconds === undefined ? 'unknown' : { kind: 'abbreviation', seconds, text: word };
}
