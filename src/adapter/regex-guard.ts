import { BadRequest } from '../errors/index.js';

/** Longest `$regex` pattern accepted in a query, in characters. */
export const MAX_REGEX_LENGTH = 1000;

interface Group {
  /** The group holds a quantifier (`*`, `+`, `?`, `{…}`) or an alternation `|`. */
  ambiguous: boolean;
}

/** Reads a quantifier at `i`; returns its length and whether it can repeat (more than once). */
function readQuantifier(pattern: string, i: number): { length: number; repeats: boolean } | undefined {
  const char = pattern[i];
  let length: number;
  let repeats: boolean;
  if (char === '*' || char === '+') {
    length = 1;
    repeats = true;
  } else if (char === '?') {
    length = 1;
    repeats = false;
  } else if (char === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
    if (!match) return undefined; // a literal '{'
    length = match[0].length;
    const max = match[2] === undefined ? Number(match[1]) : match[3] === '' ? Infinity : Number(match[3]);
    repeats = max > 1;
  } else return undefined;
  // Lazy (`+?`) and possessive (`++`) forms are the same quantifier.
  const next = pattern[i + length];
  if (next === '?' || next === '+') length += 1;
  return { length, repeats };
}

function refuse(pattern: string, reason: string): never {
  const shown = pattern.length > 40 ? `${pattern.slice(0, 40)}…` : pattern;
  throw new BadRequest(`Invalid $regex '${shown}': ${reason}`);
}

/**
 * Refuses `$regex` patterns a backtracking regex engine may need exponential time for, before they
 * reach the database: more than `MAX_REGEX_LENGTH` characters; backreferences (`\1`…`\9`, `\k<name>`);
 * lookarounds and atomic groups (`(?=`, `(?!`, `(?<=`, `(?<!`, `(?>`), which linear-time engines such
 * as the embedded database's cannot run;
 * a repeating quantifier (`*`, `+`, `{n,}`, `{n,m}` with m > 1) on a group that itself holds a
 * quantifier or an alternation, such as `(a+)+`, `(a|a)*` or `(\w?)*`. Everything else is left to
 * the database (which reports syntax errors as 400). Server code that needs such a pattern passes a
 * `RegExp` object, which is not checked.
 *
 * Throws `BadRequest` (400) naming the pattern and the reason.
 */
export function checkRegexPattern(pattern: string): void {
  if (pattern.length > MAX_REGEX_LENGTH) refuse(pattern, `longer than ${MAX_REGEX_LENGTH} characters`);
  const groups: Group[] = [{ ambiguous: false }];
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i];
    const current = groups[groups.length - 1] as Group;
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') refuse(pattern, 'backreferences are not allowed');
      i += 2;
      i = afterAtom(pattern, i, current);
    } else if (char === '[') {
      i += 1;
      if (pattern[i] === '^') i += 1;
      if (pattern[i] === ']') i += 1;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      i = afterAtom(pattern, i + 1, current);
    } else if (char === '(') {
      if (/^\(\?(=|!|<=|<!|>)/.test(pattern.slice(i, i + 4))) {
        refuse(pattern, 'lookahead, lookbehind and atomic groups are not allowed');
      }
      groups.push({ ambiguous: false });
      i += 1;
    } else if (char === ')') {
      const group = groups.length > 1 ? (groups.pop() as Group) : { ambiguous: false };
      const parent = groups[groups.length - 1] as Group;
      const quantifier = readQuantifier(pattern, i + 1);
      if (quantifier?.repeats && group.ambiguous) {
        refuse(
          pattern,
          'a repeated group must not contain quantifiers or alternations (catastrophic backtracking)',
        );
      }
      if (group.ambiguous || quantifier !== undefined) parent.ambiguous = true;
      i += 1 + (quantifier?.length ?? 0);
    } else if (char === '|') {
      current.ambiguous = true;
      i += 1;
    } else {
      i = afterAtom(pattern, i + 1, current);
    }
  }
}

/** Skips a quantifier after an atom ending at `i`, marking the group as holding one. */
function afterAtom(pattern: string, i: number, group: Group): number {
  const quantifier = readQuantifier(pattern, i);
  if (quantifier === undefined) return i;
  group.ambiguous = true;
  return i + quantifier.length;
}
