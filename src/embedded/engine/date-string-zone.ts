/**
 * Zones named inside a date/time string (`2017-07-14T12:02:44Z`, `… GMT+02:00`, `…+0330`, `… EST`, `… A`),
 * read as timelib reads them for `$dateFromString`: a numeric offset, or an abbreviation of timelib's table
 * (a few common ones here) or a military letter. MongoDB's tests (jstests/aggregation/expressions/
 * date_from_string.js) give the offsets of `CEST`, `EST`, `PDT`, `BST` and the letters `A`, `L`, `P`, `Z`.
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
 * The zone at `pos` of `text` (after optional spaces) and where it ends; `unknownAt` where a name starts
 * that is no zone known here; undefined when no zone starts there.
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
