/**
 * The `charset` parameter of a parsed request body's `Content-Type`. A body is only read in a
 * charset the parser decodes: read in another, its text would be changed without a word (Latin-1
 * `é` read as UTF-8 is a decoding error, but the Latin-1 bytes `Ã©` read as UTF-8 are `é`). Both
 * transports accept the same charsets and answer the same 415 for any other. No Node.js imports:
 * `createHandler` uses this file and must run on any runtime.
 */

import { UnsupportedMediaType } from '../errors/index.js';
import { getMediaTypeParameter } from './media-type-parameter.js';

/**
 * The charsets each parsed body kind is decoded from, lower case; a body without a charset is
 * UTF-8. JSON: UTF-8 and UTF-16 with a stated byte order (RFC 8259 §8.1 asks for UTF-8; body-parser
 * also reads UTF-16, and `TextDecoder` reads both byte orders on any runtime). `utf-16` without a
 * byte order, `utf-32` and `utf-7` are refused: `TextDecoder` lacks the last two, and would read the
 * first as little-endian whatever its byte order mark says. Forms: UTF-8 and ISO-8859-1, as
 * body-parser's `urlencoded`. Multipart: UTF-8 only, as `Response.formData()` decodes its fields.
 */
export const BODY_CHARSETS: Readonly<Record<'json' | 'form' | 'multipart', readonly string[]>> = {
  json: ['utf-8', 'utf-16le', 'utf-16be'],
  form: ['utf-8', 'iso-8859-1'],
  multipart: ['utf-8'],
};

/**
 * The charset a parsed body of `kind` is decoded from: its `Content-Type`'s `charset` parameter, or
 * `utf-8` when it has none. Throws `UnsupportedMediaType` (415, `data: { charset }`) naming the
 * charset and the ones accepted when the parser does not decode it (see `BODY_CHARSETS`).
 */
export function getBodyCharset(contentType: string, kind: 'json' | 'form' | 'multipart'): string {
  // Charset names are case-insensitive (RFC 9110 §8.3.2): `Charset="UTF-8"` is `utf-8`.
  const charset = getMediaTypeParameter(contentType, 'charset')?.toLowerCase();
  if (charset === undefined) return 'utf-8';
  const accepted = BODY_CHARSETS[kind];
  if (accepted.includes(charset)) return charset;
  const shown = charset.slice(0, 40);
  const mediaType = contentType.split(';')[0]!.trim().slice(0, 100);
  throw new UnsupportedMediaType(
    `Unsupported charset '${shown}' for ${mediaType} request bodies: send ${accepted.join(', ')}`,
    { data: { charset: shown } },
  );
}

/** Strict decoders of the Unicode charsets in `BODY_CHARSETS`: bad bytes throw, never become U+FFFD. */
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const unicodeDecoders = new Map([
  ['utf-8', utf8Decoder],
  ['utf-16le', new TextDecoder('utf-16le', { fatal: true })],
  ['utf-16be', new TextDecoder('utf-16be', { fatal: true })],
]);

/**
 * Body bytes as text in `charset`, one of `BODY_CHARSETS` (lower case). Used by both transports'
 * parsers. Throws `TypeError` for bytes that are not that charset, or for a charset not listed there.
 */
export function decodeBodyText(bytes: Uint8Array, charset: string): string {
  if (charset === 'iso-8859-1') return decodeLatin1(bytes);
  const decoder = charset === 'utf-8' ? utf8Decoder : unicodeDecoders.get(charset);
  if (decoder === undefined) throw new TypeError(`No decoder for the charset '${charset}'`);
  return decoder.decode(bytes);
}

/** UTF-16LE decoding of code units below 256 is ISO-8859-1: each unit is the character of that code. */
const latin1Units = new TextDecoder('utf-16le');

/**
 * Bytes read as ISO-8859-1: each byte is the character of the same code (not `TextDecoder`'s
 * windows-1252, which reads 0x80–0x9F otherwise). The bytes are widened to 16-bit units and decoded as
 * UTF-16: about 1 ms per MiB, where building the string from char codes took about 100.
 */
export function decodeLatin1(bytes: Uint8Array): string {
  return latin1Units.decode(Uint16Array.from(bytes));
}

/** The value of the hex digit with char code `c`, or −1. */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** The byte of the two hex digits at `at` of `text`, or −1. */
function hexByte(text: string, at: number): number {
  const high = hexDigit(text.charCodeAt(at));
  const low = hexDigit(text.charCodeAt(at + 1));
  return high === -1 || low === -1 ? -1 : high * 16 + low;
}

/**
 * One name or value of an ISO-8859-1 form: `+` is a space and `%XX` the byte (character) XX. Text
 * without `%` or `+` is returned as it is; escapes are found with `indexOf`, not a regular expression
 * with a callback per match (a MiB of `%E9` took about 200 ms that way).
 */
function decodeLatin1FormComponent(text: string): string {
  let percent = text.indexOf('%');
  if (percent === -1) return text.includes('+') ? text.replaceAll('+', ' ') : text;
  let out = '';
  let from = 0;
  for (; percent !== -1; percent = text.indexOf('%', percent + 1)) {
    const code = hexByte(text, percent + 1);
    if (code === -1) continue;
    if (percent > from) out += text.slice(from, percent).replaceAll('+', ' ');
    out += String.fromCharCode(code);
    from = percent + 3;
    percent += 2;
  }
  return out + text.slice(from).replaceAll('+', ' ');
}

/**
 * Calls `add(name, value)` for each field of a urlencoded form sent as ISO-8859-1 (text from
 * `decodeLatin1`), in order. `URLSearchParams` cannot be used: it reads `%E9` as a UTF-8 byte.
 */
export function forEachLatin1FormField(text: string, add: (name: string, value: string) => void): void {
  for (const field of text.split('&')) {
    if (field === '') continue;
    const equals = field.indexOf('=');
    const name = equals === -1 ? field : field.slice(0, equals);
    add(
      decodeLatin1FormComponent(name),
      equals === -1 ? '' : decodeLatin1FormComponent(field.slice(equals + 1)),
    );
  }
}
