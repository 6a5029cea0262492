/**
 * Every pattern a client sends (`$regex`, `$regexMatch`/`$regexFind`/`$regexFindAll`, `$jsonSchema`
 * `pattern` and `patternProperties`) runs on RE2 (the `re2js` port), whose matching time is linear in
 * the input: a client's pattern cannot stall the event loop the server shares with the application
 * (V8's own engine backtracks, and its linear fallback skips the `i` and `u` flags and lookarounds).
 * RE2 has no backreferences and no lookarounds: such patterns are refused with a clear error instead of
 * being run. One match's work is bounded too (regex-work.ts).
 */
import { RE2JS } from 're2js';
import { checkDeadline } from './deadline.js';
import { meteredText, needsMetering, RegexMatchLimitError } from './regex-work.js';
import type { QueryOp } from './operator-types.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * The longest pattern MongoDB takes, in UTF-8 bytes (RegexMatchExpression::kMaxPatternSize in
 * src/mongo/db/matcher/expression_leaf.h). It also bounds what a client's pattern costs here: RE2
 * compiles a 1 MB literal in seconds, during which the server answers no one.
 */
export const MAX_PATTERN_BYTES = 32_764;

/** Whether `pattern` is longer than MongoDB takes (counting UTF-8 bytes only when it could be). */
export function isTooLong(pattern: string): boolean {
  return pattern.length * 3 > MAX_PATTERN_BYTES && Buffer.byteLength(pattern, 'utf8') > MAX_PATTERN_BYTES;
}

/** The RE2 flags of MongoDB's `i`, `m`, `s` options (`x` is applied before, `u` and `l` change nothing). */
function re2Flags(flags: string): number {
  let out = 0;
  if (flags.includes('i')) out |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) out |= RE2JS.MULTILINE;
  if (flags.includes('s')) out |= RE2JS.DOTALL;
  return out;
}

/**
 * `text` as RE2 is to read it for a program of `instructions`: metered when the match could cost enough to
 * stall the server (regex-work.ts).
 */
function textFor(text: string, instructions: number): string {
  return needsMetering(instructions, text.length) ? meteredText(text, instructions) : text;
}

/** A RegExp whose matching (`test`, `exec`, and so everything built on them) runs on RE2. */
export class LinearRegExp extends RegExp {
  readonly #re2: RE2JS;
  readonly #instructions: number;

  private constructor(pattern: string, flags: string, re2: RE2JS) {
    super(pattern, flags);
    this.#re2 = re2;
    this.#instructions = re2.programSize();
  }

  /**
   * Compiles `pattern` with MongoDB options already reduced to `i`, `m`, `s`.
   * @throws CommandError BadValue (2) 'Regular expression is too long' past {@link MAX_PATTERN_BYTES};
   *   51091 when the pattern is invalid, or RE2 cannot run it (a backreference or lookaround).
   */
  static compile(pattern: string, flags: string): LinearRegExp {
    if (isTooLong(pattern)) throw new CommandError(ErrorCodes.BadValue, 'Regular expression is too long');
    try {
      new RegExp(pattern, flags);
    } catch (error) {
      throw new CommandError(51091, `Regular expression is invalid: ${(error as Error).message}`);
    }
    try {
      return new LinearRegExp(pattern, flags, RE2JS.compile(pattern, re2Flags(flags)));
    } catch (error) {
      throw new CommandError(
        51091,
        `Regular expression is invalid: ${(error as Error).message}. The embedded database runs regular ` +
          'expressions in linear time (RE2): backreferences, lookahead and lookbehind are not supported',
      );
    }
  }

  /** `split`, `matchAll` and the like derive plain RegExps (they construct with two arguments). */
  static override get [Symbol.species](): RegExpConstructor {
    return RegExp;
  }

  /**
   * As RegExp's.
   * @throws CommandError MaxTimeMSExpired (50) past the command's `maxTimeMS`, RegexMatchLimitError (51156)
   *   when the match does too much work (regex-work.ts).
   */
  override test(input: string): boolean {
    checkDeadline();
    return this.#re2.test(textFor(String(input), this.#instructions));
  }

  /**
   * `test` as a query's `$regex` (and a `$jsonSchema` `pattern`) runs it: MongoDB 7.0's
   * RegexMatchExpression::matchesSingleElement (src/mongo/db/matcher/expression_leaf.cpp) takes a PCRE
   * error, such as its match limit, as no match.
   * @throws CommandError MaxTimeMSExpired (50) past the command's `maxTimeMS`.
   */
  matches(input: string): boolean {
    try {
      return this.test(input);
    } catch (error) {
      if (error instanceof RegexMatchLimitError) return false;
      throw error;
    }
  }

  /**
   * As RegExp's: a global one searches from `lastIndex` and moves it past the match (0 on a miss).
   * @throws CommandError 50 and 51156 as {@link LinearRegExp.test}.
   */
  override exec(input: string): RegExpExecArray | null {
    checkDeadline();
    const text = String(input);
    const matcher = this.#re2.matcher(textFor(text, this.#instructions));
    const from = this.global ? this.lastIndex : 0;
    if (from > text.length || !matcher.find(from)) {
      if (this.global) this.lastIndex = 0;
      return null;
    }
    if (this.global) this.lastIndex = matcher.end();
    const groups: (string | undefined)[] = [];
    for (let i = 0; i <= matcher.groupCount(); i++) groups.push(matcher.group(i) ?? undefined);
    const result = groups as unknown as RegExpExecArray;
    result.index = matcher.start();
    result.input = text;
    const names = this.#re2.namedGroups();
    if (Object.keys(names).length > 0) {
      const named: Record<string, string> = {};
      for (const [name, index] of Object.entries(names)) named[name] = groups[index]!;
      result.groups = named;
    }
    return result;
  }
}

/** RegExps in a query operator's value, as linear ones (mingo hands operators plain copies). */
function linear(value: unknown): unknown {
  if (value instanceof LinearRegExp) return value;
  if (value instanceof RegExp) return LinearRegExp.compile(value.source, value.flags);
  return Array.isArray(value) ? value.map(linear) : value;
}

/**
 * Wraps a query operator (`$regex`, `$in`, `$nin`, `$not`, `$all`) so the regexes it is given match
 * with RE2: mingo copies a `{ $regex }` value into a plain RegExp before the operator sees it.
 */
export function linearRegexOperator(op: QueryOp): QueryOp {
  return (selector, value, options) => op(selector, linear(value), options);
}
