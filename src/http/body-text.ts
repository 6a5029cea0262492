/**
 * Body text that parses but cannot be stored as it was sent. A database stores strings as UTF-8, so a
 * string holding a lone UTF-16 surrogate would be written with U+FFFD in its place, and form
 * parsers turn percent-encoded bytes that are not UTF-8 into U+FFFD too: the record would then hold
 * something the client never sent, with a success answer. The body parsers of both transports
 * refuse such bodies with 400 instead (as they refuse raw bytes that are not UTF-8). No Node.js
 * imports: `createHandler` uses this file and must run on any runtime.
 */
import { roundedIntegerOf } from '../core/index.js';
import { decodeBodyText } from './body-charset.js';
import { getMediaTypeParameter } from './media-type-parameter.js';

/**
 * A `\u` escape of a UTF-16 surrogate (`\uD800`–`\uDFFF`) with the run of backslashes before it, so
 * that an escaped backslash followed by the letters `ud800` (`\\ud800`) can be told apart. Group 2
 * is the third hex digit: `8`–`b` for a high surrogate, `c`–`f` for a low one.
 */
const SURROGATE_ESCAPE = /(\\+)u[dD]([89a-fA-F])[0-9a-fA-F]{2}/g;
const HIGH_SURROGATE_DIGIT = /[89abAB]/;

/**
 * True when JSON text has a string escape of a lone surrogate: a high one (`\uD800`–`\uDBFF`) not
 * directly followed by a low one (`\uDC00`–`\uDFFF`), or a low one not directly after a high one.
 * `JSON.parse` accepts those; a pair such as `\ud83d\ude00` (😀) is fine. The text is scanned, not
 * the parsed value, so that the Express parser can check the body before it is parsed.
 */
export function hasLoneSurrogateEscape(json: string): boolean {
  if (!json.includes('\\u')) return false;
  // Index just after a high surrogate escape that still waits for its low half, else -1.
  let pendingHigh = -1;
  SURROGATE_ESCAPE.lastIndex = 0;
  for (let match = SURROGATE_ESCAPE.exec(json); match !== null; match = SURROGATE_ESCAPE.exec(json)) {
    const backslashes = (match[1] as string).length;
    // An even run is escaped backslashes followed by a literal `u`: no escape at all.
    if (backslashes % 2 === 0) continue;
    const escapeStart = match.index + backslashes - 1;
    const high = HIGH_SURROGATE_DIGIT.test(match[2] as string);
    if (pendingHigh !== -1) {
      if (high || escapeStart !== pendingHigh) return true;
      pendingHigh = -1; // the low half of a pair
    } else if (high) {
      pendingHigh = match.index + match[0].length;
    } else {
      return true;
    }
  }
  return pendingHigh !== -1;
}

/** A run of percent-encoded bytes (`%E2%82%AC`): the bytes of one or more characters. */
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * True when urlencoded form text has percent-encoded bytes that are not UTF-8 (`%FF`, `%ED%A0%80`, a
 * sequence cut short). The text around the escapes is already valid UTF-8 (the body was decoded
 * strictly), so a character can only be broken inside a run of escapes, and `decodeURIComponent`
 * refuses exactly those runs. Literal `%` not followed by two hex digits is left alone, as
 * `URLSearchParams` leaves it.
 */
export function hasInvalidPercentEncoding(form: string): boolean {
  if (!form.includes('%')) return false;
  for (const run of form.match(PERCENT_RUN) ?? []) {
    try {
      decodeURIComponent(run);
    } catch {
      return true;
    }
  }
  return false;
}

/** Whether `n` is an integer beyond ±2^53, where doubles no longer hold every integer. */
const isUnsafeInteger = (n: number): boolean =>
  (n > Number.MAX_SAFE_INTEGER || n < -Number.MAX_SAFE_INTEGER) && Number.isInteger(n);

/**
 * What a parsed JSON value's numbers say: `'non-finite'` when one is too large for a double, which
 * `JSON.parse` reads as `±Infinity` (`1e400`, or a run of 309 digits: the record would hold
 * `Infinity` for the number the client sent), else `'unsafe-integer'` when one is an integer beyond
 * ±2^53 (it may have been rounded: only the text can tell), else `undefined`. The parsed value is
 * walked once, rather than the text scanned in JavaScript; without recursion, so a deeply nested body
 * cannot overflow the stack.
 */
function inspectNumbers(value: unknown): 'non-finite' | 'unsafe-integer' | undefined {
  if (typeof value !== 'object' || value === null) {
    if (typeof value !== 'number') return undefined;
    return !Number.isFinite(value) ? 'non-finite' : isUnsafeInteger(value) ? 'unsafe-integer' : undefined;
  }
  let unsafe = false;
  let pending: object[] | undefined;
  for (let current: object | undefined = value; current !== undefined; current = pending?.pop()) {
    // Indexes and for-in rather than Object.values: no array copied per object.
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const item: unknown = current[i];
        if (typeof item === 'number') {
          if (!Number.isFinite(item)) return 'non-finite';
          if (isUnsafeInteger(item)) unsafe = true;
        } else if (typeof item === 'object' && item !== null) (pending ??= []).push(item);
      }
      continue;
    }
    for (const key in current) {
      const item = (current as Record<string, unknown>)[key];
      if (typeof item === 'number') {
        if (!Number.isFinite(item)) return 'non-finite';
        if (isUnsafeInteger(item)) unsafe = true;
      } else if (typeof item === 'object' && item !== null) (pending ??= []).push(item);
    }
  }
  return unsafe ? 'unsafe-integer' : undefined;
}

/** Whether a character can continue a JSON number literal (digits, `.`, `e`, `E`, `+`, `-`). */
function isNumberPart(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/**
 * The first number literal of valid JSON `json` that writes an integer a double cannot hold
 * (core's `roundedIntegerOf`), with the integer it would become; `undefined` for none. Strings are
 * skipped. A literal with an exponent or a fraction (`1e20`, `0.1`) means the nearest double, as
 * written, and is never one.
 */
function findRoundedInteger(json: string): [literal: string, rounded: string] | undefined {
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < json.length; i++) {
        const d = json.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < json.length && isNumberPart(json.charCodeAt(end))) end++;
      const literal = json.slice(i, end);
      const rounded = roundedIntegerOf(literal);
      if (rounded !== undefined) return [literal, rounded];
      i = end - 1;
    }
  }
  return undefined;
}

/**
 * Why the numbers of a parsed JSON body cannot be stored as sent (for the 400 message), or
 * `undefined` when they can: a number too large for a double (`1e400`, which `JSON.parse` reads as
 * `Infinity`), or an integer written in digits that a double cannot hold exactly
 * (`9007199254740993`, read as 9007199254740992: RFC 8259 §6 counts only integers within ±(2^53 − 1)
 * as interoperable). `text` is the body's JSON text, or a function giving it (called only when the
 * parsed value holds an integer beyond ±2^53): the usual body costs one walk of its value. Numbers with a fraction or
 * an exponent are the nearest double, which is what writing them means.
 */
export function findUnstorableNumber(value: unknown, text: string | (() => string)): string | undefined {
  const found = inspectNumbers(value);
  if (found === 'non-finite') return 'a number is too large to store (it would be Infinity)';
  if (found === undefined) return undefined;
  const rounded = findRoundedInteger(typeof text === 'string' ? text : text());
  return rounded === undefined
    ? undefined
    : `the integer ${rounded[0]} cannot be stored exactly (a number holds ${rounded[1]}); send it as a string`;
}

/**
 * Why a parsed JSON body is not data a service takes, or `undefined` when it is: the body of
 * `create`, `update`, `patch` or a custom method is a record or an array of records (spec: SEED.md
 * "REST mapping"), so a top-level `null`, number, string or boolean is refused, the same on both
 * transports (body-parser's default `strict` refuses them on Express).
 */
export function findScalarBody(value: unknown): string | undefined {
  if (typeof value === 'object' && value !== null) return undefined;
  const kind = value === null ? 'null' : typeof value === 'boolean' ? 'a boolean' : `a ${typeof value}`;
  return `the body must be a JSON object or array, not ${kind}`;
}

/**
 * Why a JSON or urlencoded body text cannot be stored as sent (for the 400 message), or `undefined`
 * when it can: see `hasLoneSurrogateEscape` and `hasInvalidPercentEncoding`
 * (numbers are checked in the parsed value: `findUnstorableNumber`).
 */
export function findUnstorableText(text: string, kind: 'json' | 'form'): string | undefined {
  if (kind === 'json') {
    return hasLoneSurrogateEscape(text)
      ? 'a string holds a lone UTF-16 surrogate escape (\\uD800–\\uDFFF without its pair), which cannot be stored as UTF-8'
      : undefined;
  }
  return hasInvalidPercentEncoding(text) ? 'percent-encoded bytes that are not UTF-8' : undefined;
}

/** U+FFFD, the character decoders put in place of bytes that are not UTF-8. */
const REPLACEMENT = '\uFFFD';

const utf8 = new TextEncoder();

/** Index of `needle` in `bytes` at or after `from`, or -1. */
function indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0] as number;
  for (let i = bytes.indexOf(first, from); i !== -1; i = bytes.indexOf(first, i + 1)) {
    if (i + needle.length > bytes.length) return -1;
    let j = 1;
    while (j < needle.length && bytes[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/**
 * The parts of a multipart body, each from just after its `--boundary` line's boundary to just
 * before the next `CRLF--boundary`: the part's CRLF, header lines, empty line and body, the body last.
 * Leading CRLFs are skipped, as `Response.formData()` skips them. `undefined` when the body does not
 * start with `--boundary`.
 */
function splitParts(bytes: Uint8Array, boundary: string): Uint8Array[] | undefined {
  const delimiter = utf8.encode(`\r\n--${boundary}`);
  let start = 0;
  while (bytes[start] === 0x0d && bytes[start + 1] === 0x0a) start += 2;
  // The first delimiter has no CRLF before it.
  const first = delimiter.subarray(2);
  if (indexOfBytes(bytes.subarray(start, start + first.length), first, 0) !== 0) return undefined;
  const parts: Uint8Array[] = [];
  let partStart = start + first.length;
  for (let next = indexOfBytes(bytes, delimiter, partStart); next !== -1;) {
    parts.push(bytes.subarray(partStart, next));
    partStart = next + delimiter.length;
    next = indexOfBytes(bytes, delimiter, partStart);
  }
  return parts;
}

/** Whether `bytes` are valid UTF-8 (body-charset.ts decodes strictly). */
function isUtf8(bytes: Uint8Array): boolean {
  try {
    decodeBodyText(bytes, 'utf-8');
    return true;
  } catch {
    return false;
  }
}

/** Whether two byte sequences are equal. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether the U+FFFD in one entry of a multipart body were all sent as such. `part` is the entry's
 * part (see `splitParts`); its body is its last bytes: the file's (`file.size` of them; a
 * `Content-Transfer-Encoding` may make the sent body longer, never shorter) or, for a text field,
 * the UTF-8 of its value when it was decoded without a replacement. So the bytes before are the
 * part's headers, perhaps with the start of its body: when they are valid UTF-8, the name and file
 * name read from them are as sent. A text value with U+FFFD is as sent when the body is exactly its
 * UTF-8 (a replaced byte makes the UTF-8 of the value differ from the bytes it came from).
 */
function isEntrySent(part: Uint8Array, name: string, value: FormDataEntryValue): boolean {
  const text = typeof value === 'string' ? utf8.encode(value) : undefined;
  const bodyLength = text === undefined ? (value as File).size : text.length;
  if (bodyLength > part.length) return false;
  const head = part.subarray(0, part.length - bodyLength);
  const fileName = typeof value === 'string' ? '' : value.name;
  if ((name + fileName).includes(REPLACEMENT) && !isUtf8(head)) return false;
  if (typeof value !== 'string' || !value.includes(REPLACEMENT)) return true;
  return sameBytes(part.subarray(head.length), text as Uint8Array);
}

/**
 * True when the text of a multipart body (field names, text values and file names, as
 * `Response.formData()` gave them from `bytes`, sent as `contentType`) holds a U+FFFD that the
 * parser put in place of bytes that are not UTF-8, which it does without an error. Checked part by
 * part, so the bytes of a file (which may well hold EF BF BD, U+FFFD's UTF-8) never vouch for a
 * text field; a U+FFFD the client sent is kept. Where the parts cannot be matched with the entries,
 * or a text field with a U+FFFD came base64-encoded (`Content-Transfer-Encoding`, deprecated by
 * RFC 7578 §4.7), the text cannot be vouched for and counts as replaced.
 */
export function hasReplacedMultipartText(form: FormData, bytes: Uint8Array, contentType: string): boolean {
  const entries: [string, FormDataEntryValue][] = [];
  let replaced = false;
  form.forEach((value, name) => {
    entries.push([name, value]);
    if (!replaced) {
      replaced = (name + (typeof value === 'string' ? value : value.name)).includes(REPLACEMENT);
    }
  });
  if (!replaced) return false;
  const boundary = getMediaTypeParameter(contentType, 'boundary');
  const parts = boundary === undefined ? undefined : splitParts(bytes, boundary);
  if (parts === undefined || parts.length !== entries.length) return true;
  return entries.some(([name, value], i) => !isEntrySent(parts[i] as Uint8Array, name, value));
}
