/**
 * A parameter of a media type (a `Content-Type` value), read as RFC 9110 §5.6.6 writes parameters:
 * `; name=value` after the type, the name case-insensitive, the value a token or a quoted-string
 * (RFC 9110 §5.6.4), in which a backslash escapes the next character. No Node.js imports: the Web
 * Standard handler uses this file and must run on any runtime.
 */

/**
 * The value of the parameter `name` (lower case) of `contentType`, unquoted and unescaped, its case
 * kept (`multipart/form-data; Boundary="a;b"` gives `a;b` for `boundary`); the first one when it is
 * repeated, `undefined` when there is none. A `;` inside a quoted value does not end the parameter,
 * so one parameter's value never reads as another parameter. Whitespace around a name or an unquoted
 * value is dropped, and an unterminated quoted value runs to the end, as clients send them.
 */
export function getMediaTypeParameter(contentType: string, name: string): string | undefined {
  let i = contentType.indexOf(';');
  if (i === -1) return undefined; // the usual `application/json`: no parameters to read
  while (i < contentType.length) {
    i++; // past the `;`
    const equals = nextOf(contentType, '=;', i);
    if (contentType[equals] !== '=') {
      i = equals; // a parameter without a value, or an empty one between two `;`
      continue;
    }
    const parameterName = contentType.slice(i, equals).trim().toLowerCase();
    const value = readValue(contentType, equals + 1);
    if (parameterName === name) return value.text;
    i = value.end;
  }
  return undefined;
}

/** The index of the first of `chars` in `text` at or after `from`, or `text.length`. */
function nextOf(text: string, chars: string, from: number): number {
  let i = from;
  while (i < text.length && !chars.includes(text[i]!)) i++;
  return i;
}

/**
 * The parameter value starting at `start` (after its `=`) and the index of the `;` that ends the
 * parameter (or `text.length`). A quoted-string ends at its closing quote; what follows it up to
 * the next `;` is not part of any value.
 */
function readValue(text: string, start: number): { text: string; end: number } {
  let i = start;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text[i] !== '"') {
    const end = nextOf(text, ';', i);
    return { text: text.slice(i, end).trim(), end };
  }
  let value = '';
  for (i++; i < text.length && text[i] !== '"'; i++) {
    if (text[i] === '\\' && i + 1 < text.length) i++;
    value += text[i];
  }
  return { text: value, end: nextOf(text, ';', i) };
}
