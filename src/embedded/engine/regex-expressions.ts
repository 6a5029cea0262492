/**
 * `$regexMatch`, `$regexFind` and `$regexFindAll` as MongoDB 7.0 evaluates them (src/mongo/db/pipeline/
 * expression.cpp, ExpressionRegex): `{ input, regex, options? }` checked with MongoDB's codes (a malformed
 * argument document, `input` not a string 51104, `regex` not a string or regex 51105, `options` not a
 * string 51106, options in both 51107, an unknown flag 51108, a null byte 51109/51110, an invalid
 * pattern 51111); a null or missing `input` or `regex` answers false, null or []; `idx` counts code
 * points and an unmatched capture is null. mingo accepts most of these and differs on `idx` and empty
 * matches. Patterns are checked by V8's parser (PCRE and V8 accept mostly the same syntax) and run on
 * RE2 (linear-regex.ts): V8 backtracks, and `^(a+)+$` with the `i` option would stall the server. A match
 * past RE2's work limit (regex-work.ts) fails as one past PCRE2's match limit does in `execute`: 51156.
 */
import { evalExpr } from 'mingo/core';
import type { ExpressionOp } from './operator-types.js';
import { bsonTag, isPlainObject } from './values.js';
import { isNullish, typeName } from './value-strings.js';
import { stripExtended } from './regex-extended.js';
import { isTooLong, LinearRegExp } from './linear-regex.js';
import { RegexMatchLimitError } from './regex-work.js';
import { CommandError } from '../errors.js';

const fail = (code: number, message: string): never => {
  throw new CommandError(code, message);
};

/**
 * The argument document of a regex operator, checked as CommonRegexParse checks it.
 * @throws CommandError 51103 (not a document), 31024 (an unknown field), 31022/31023 (no input/regex).
 */
export function regexArguments(name: string, expr: unknown): Record<string, unknown> {
  if (!isPlainObject(expr))
    fail(51103, `${name} expects an object of named arguments but found: ${typeName(expr)}`);
  const spec = expr as Record<string, unknown>;
  for (const field of Object.keys(spec)) {
    if (field !== 'input' && field !== 'regex' && field !== 'options') {
      fail(31024, `${name} found an unknown argument: ${field}`);
    }
  }
  if (!('input' in spec)) fail(31022, `${name} requires 'input' parameter`);
  if (!('regex' in spec)) fail(31023, `${name} requires 'regex' parameter`);
  return spec;
}

/** A regex value's pattern and flags (a BSON regex, or a JS one). */
function regexParts(value: unknown): { pattern: string; flags: string } | undefined {
  if (bsonTag(value) === 'BSONRegExp') {
    const r = value as { pattern: string; options: string };
    return { pattern: r.pattern, flags: r.options };
  }
  if (value instanceof RegExp) return { pattern: value.source, flags: value.flags.replace(/[gyud]/g, '') };
  return undefined;
}

/**
 * The compiled `regex` and `options` of a regex operator, or undefined when `regex` is null or missing
 * (then nothing matches). Checks them as _extractRegexAndOptions and _compile do.
 * @throws CommandError 51105, 51106, 51107, 51109, 51110, 51108 (an unknown flag), 51111 (invalid pattern),
 *   51091 (a backreference or lookaround, which RE2 cannot run).
 */
export function compileRegex(name: string, regex: unknown, options: unknown): RegExp | undefined {
  const parts = regexParts(regex);
  if (!isNullish(regex) && typeof regex !== 'string' && !parts)
    fail(51105, `${name} needs 'regex' to be of type string or regex`);
  if (!isNullish(options) && typeof options !== 'string')
    fail(51106, `${name} needs 'options' to be of type string`);
  if (parts && parts.flags !== '' && !isNullish(options))
    fail(51107, `${name}: found regex option(s) specified in both 'regex' and 'option' fields`);
  const pattern = parts ? parts.pattern : typeof regex === 'string' ? regex : undefined;
  // Options given separately are checked even when there is no pattern.
  const flags = isNullish(options) ? (parts?.flags ?? '') : (options as string);
  if (pattern?.includes('\0'))
    fail(51109, `${name}: regular expression cannot contain an embedded null byte`);
  if (flags.includes('\0'))
    fail(51110, `${name}: regular expression options cannot contain an embedded null byte`);
  if (pattern === undefined) return undefined;
  let jsFlags = 'g';
  let source = pattern;
  for (const flag of flags) {
    if (flag === 'i' || flag === 'm' || flag === 's') jsFlags += jsFlags.includes(flag) ? '' : flag;
    else if (flag === 'x') source = stripExtended(source);
    else if (flag !== 'u') fail(51108, `${name} invalid flag in regex options: ${flag}`);
  }
  // MongoDB compiles with PCRE2 built with LINK_SIZE=2 (src/third_party/pcre2/SConscript), which refuses
  // a compiled pattern past 64 K code units with this message; a literal character takes two, so the
  // query's limit on the written pattern is where MongoDB's falls for plain text.
  if (isTooLong(pattern)) fail(51111, `Invalid Regex in ${name}: regular expression is too large`);
  try {
    new RegExp(source, jsFlags);
  } catch (error) {
    // V8's reason (PCRE words its own differently), without V8's restatement of the pattern and flags.
    const reason = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    return fail(51111, `Invalid Regex in ${name}: ${reason}`);
  }
  return LinearRegExp.compile(source, jsFlags);
}

/** One match: `{ match, idx, captures }` (`idx` in code points), and where it starts and ends (UTF-16). */
interface Match {
  doc: { match: string; idx: number; captures: (string | null)[] };
  end: number;
  start: number;
}

/** The first match of `re` in `input` at or after UTF-16 offset `from`, whose code point index is `cpFrom`. */
function nextMatch(re: RegExp, input: string, from: number, cpFrom: number): Match | undefined {
  re.lastIndex = from;
  const m = re.exec(input);
  if (!m) return undefined;
  const idx = cpFrom + Array.from(input.slice(from, m.index)).length;
  const captures = m.slice(1).map((c) => (c === undefined ? null : c));
  return { doc: { match: m[0], idx, captures }, start: m.index, end: m.index + m[0].length };
}

/** Every match, without overlaps; an empty match moves on by one code point (ExpressionRegexFindAll). */
function allMatches(re: RegExp, input: string): Match['doc'][] {
  const out: Match['doc'][] = [];
  let from = 0;
  let cpFrom = 0;
  do {
    const m = nextMatch(re, input, from, cpFrom);
    if (!m) break;
    out.push(m.doc);
    const step = m.doc.match === '' ? (input.codePointAt(m.start)! > 0xffff ? 2 : 1) : m.end - m.start;
    from = m.start + step;
    cpFrom = m.doc.idx + (m.doc.match === '' ? 1 : Array.from(m.doc.match).length);
  } while (from < input.length);
  return out;
}

/** A regex operator for mingo's context; `answer` turns the input and compiled regex into the result. */
function regexOperator(
  name: string,
  answer: (input: string | undefined, re: RegExp | undefined) => unknown,
): ExpressionOp {
  return (obj, expr, options) => {
    const spec = regexArguments(name, expr);
    const input = evalExpr(obj, spec['input'], options);
    const regex = evalExpr(obj, spec['regex'], options);
    const flags = 'options' in spec ? evalExpr(obj, spec['options'], options) : null;
    if (!isNullish(input) && typeof input !== 'string')
      fail(51104, `${name} needs 'input' to be of type string`);
    const re = compileRegex(name, regex, flags);
    try {
      return answer(input as string | undefined, re);
    } catch (error) {
      if (!(error instanceof RegexMatchLimitError)) throw error;
      return fail(
        51156,
        `Error occurred while executing the regular expression in ${name}. Result code: match limit exceeded`,
      );
    }
  };
}

/** The operators above, registered over mingo's (strict-expressions.ts). */
export const regexExpressions: Record<string, ExpressionOp> = {
  $regexMatch: regexOperator('$regexMatch', (input, re) => {
    if (typeof input !== 'string' || !re) return false;
    re.lastIndex = 0;
    return re.test(input);
  }),
  $regexFind: regexOperator('$regexFind', (input, re) =>
    typeof input === 'string' && re ? (nextMatch(re, input, 0, 0)?.doc ?? null) : null,
  ),
  $regexFindAll: regexOperator('$regexFindAll', (input, re) =>
    typeof input === 'string' && re ? allMatches(re, input) : [],
  ),
};
