/**
 * The values a query regex (`$regex`, `{ a: /re/ }`, a regex in `$in`, `$not: /re/`) matches, as MongoDB
 * 7.0's RegexMatchExpression::matchesSingleElement (src/mongo/db/matcher/expression_leaf.cpp) decides:
 * a string or a BSON symbol whose text it matches, and a stored BSON regular expression whose pattern
 * and options are the query's own, compared as text. The compiled regex (query.ts `makeRegExp`) no
 * longer holds what the client wrote (`x` is applied, options are reduced to `i`, `m`, `s`), so that is
 * kept beside it here. A match past RE2's work limit is no match, as a PCRE error is there (LinearRegExp
 * `matches`).
 */
import { bsonTag } from './values.js';
import { LinearRegExp } from './linear-regex.js';

/** A regex's pattern and options as the client wrote them, by the regex compiled from them. */
const written = new WeakMap<RegExp, { pattern: string; options: string }>();

/** Records that `regex` was compiled from `pattern` with `options`; returns `regex`. */
export function withWritten(regex: RegExp, pattern: string, options: string): RegExp {
  written.set(regex, { pattern, options });
  return regex;
}

/** Whether `regex` matches the text `text`, as a query's RegexMatchExpression decides. */
function matchesText(regex: RegExp, text: string): boolean {
  return regex instanceof LinearRegExp ? regex.matches(text) : regex.test(text);
}

/** True when the query regex `regex` matches the one stored `value` (see the file comment). */
export function regexMatches(regex: RegExp, value: unknown): boolean {
  if (typeof value === 'string') return matchesText(regex, value);
  const tag = bsonTag(value);
  if (tag === 'BSONSymbol') return matchesText(regex, String((value as { value: unknown }).value));
  if (tag !== 'BSONRegExp') return false;
  const stored = value as { pattern: string; options: string };
  const own = written.get(regex) ?? { pattern: regex.source, options: regex.flags };
  return stored.pattern === own.pattern && stored.options === own.options;
}
