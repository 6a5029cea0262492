/**
 * The work one RE2 match may do. RE2's time is linear in the input, but when its lazy DFA gives up (or a
 * match must report where it is: `exec`), its NFA steps every live thread at every character, up to the
 * program's size: `'[a-z]{1000}'.repeat(30)` compiles to 30,002 instructions and spends seconds on 10,000
 * characters, minutes on a megabyte, while the server answers no one. MongoDB bounds PCRE2 the same way,
 * with a match limit (200,000, src/third_party/pcre2/SConscript `--with-match-limit`).
 *
 * re2js has no option or callback to stop a match, and the engine it picks is hidden, but it takes its
 * input as a `String` object too and reads it one `charCodeAt` at a time: {@link meteredText} counts those
 * reads, checks `maxTimeMS` between them, and stops the match past {@link MATCH_WORK_LIMIT}.
 */
import { checkDeadline } from './deadline.js';
import { CommandError } from '../errors.js';

/**
 * The work one match may do, in NFA thread steps (about 100 ns each here): past it, the match stops with
 * {@link RegexMatchLimitError}. Ordinary patterns stay below it (one of 15 instructions may run over a
 * megabyte), and a hostile one stops within seconds.
 */
export const MATCH_WORK_LIMIT = 20_000_000;

/** Work between two looks at the deadline and the limit; a match that cannot reach it is not metered. */
const CHECK_EVERY = 1_000_000;

/** Why a match stopped: its work passed {@link MATCH_WORK_LIMIT} (PCRE2's "match limit exceeded"). */
export class RegexMatchLimitError extends CommandError {
  constructor() {
    // The aggregation operators restate this with their name (regex-expressions.ts), as MongoDB words it.
    super(51156, 'Error occurred while executing the regular expression. Result code: match limit exceeded');
  }
}

/**
 * Whether a match of a program of `instructions` over `length` characters could do enough work to need
 * metering; the common case (a short pattern, or a short text) runs on the plain string.
 */
export function needsMetering(instructions: number, length: number): boolean {
  return instructions * length > CHECK_EVERY;
}

/**
 * `text` for RE2 to read with its reads counted as work: a `String` object whose own `charCodeAt` counts.
 * The DFA reads each character once, forward, and costs about one unit per character once its states are
 * built; building them is not seen here, but re2js gives up past 8 MB of states that make too little
 * progress (`'[a-z]{1000}'.repeat(30)` spends about a second there before its NFA runs). The NFA reads the character before the one
 * it just read to learn the empty-width context of each step, and a step costs up to the program's size: a
 * read backwards is counted as `instructions` units. An own property rather than a subclass of `String`:
 * merely defining such a subclass slowed every match in the process by a quarter (V8's property caches;
 * counted with callgrind).
 * @throws CommandError (from a read) MaxTimeMSExpired (50) past the command's `maxTimeMS`;
 *   {@link RegexMatchLimitError} (51156) past {@link MATCH_WORK_LIMIT}.
 */
export function meteredText(text: string, instructions: number): string {
  let work = 0;
  let nextCheck = CHECK_EVERY;
  let last = -1;
  const charCodeAt = (index: number): number => {
    work += index < last ? instructions : 1;
    last = index;
    if (work >= nextCheck) {
      nextCheck += CHECK_EVERY;
      checkDeadline();
      if (work > MATCH_WORK_LIMIT) throw new RegexMatchLimitError();
    }
    return text.charCodeAt(index);
  };
  // re2js takes a `String` object as it takes a string (its isString), and reads it through `charCodeAt`.
  return Object.defineProperty(new String(text), 'charCodeAt', { value: charCodeAt }) as unknown as string;
}
