/**
 * PCRE's extended mode (the `x` option of `$regex` and of the regex expression operators): JavaScript has
 * no such flag, so the pattern is rewritten before it is compiled.
 */

/**
 * Strips whitespace and `#` comments from an extended (`x`) pattern, outside character classes; escaped
 * characters are kept as written.
 */
export function stripExtended(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\' && i + 1 < source.length) {
      out += ch + source[i + 1]!;
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
    } else if (ch === '[') {
      inClass = true;
      out += ch;
    } else if (ch === '#') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (!/\s/.test(ch)) out += ch;
  }
  return out;
}
