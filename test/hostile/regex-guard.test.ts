import { describe, expect, it } from 'vitest';
import { filterQuery } from 'plume/adapter';

/** A client query with `$regex` on `text`, checked with `$regex` allowed (as the example app does). */
const check = (pattern: string) => () =>
  filterQuery({ text: { $regex: pattern } }, { operators: ['$regex'] });

describe('$regex patterns a backtracking engine could take exponential time for', () => {
  it.each([
    '^(a+)+$',
    '(a*)*',
    '(a|a)*',
    '(a|b)+',
    '(\\w?)*',
    '((ab)*)+',
    '(.*a){12}',
    '([a-z]+)*$',
    '(x+x+)+y',
    '(?:a+){2,}',
    '^(a+)\\1$',
    '(?<x>a)\\k<x>',
    '(?=x)',
    'a(?!b)',
    '(?<=a)b',
    '(?<!a)b',
    '(?>a+)b',
    'a'.repeat(1001),
  ])('%s is refused with 400', (pattern) => {
    expect(check(pattern)).toThrow(
      expect.objectContaining({ code: 400, message: expect.stringMatching(/^Invalid \$regex/) }),
    );
  });

  it.each([
    '^hello',
    'a+b+c*',
    '(foo)+',
    '(ab){2,5}',
    '(a+)?',
    '(a|b)',
    '(a|b){1}',
    '(?:ab)+',
    '[(a+)+]',
    '\\(a+\\)+',
    '(?<name>a)',
    '[(?=x)]',
    'b o b # a comment',
    '^line two$',
    '(',
  ])('%s is left to the database', (pattern) => {
    expect(check(pattern)).not.toThrow();
  });

  it('also applies to trusted queries (operators: all), and inside $or', () => {
    expect(() => filterQuery({ $or: [{ text: { $regex: '(a+)+' } }] }, { operators: 'all' })).toThrow(
      /Invalid \$regex/,
    );
  });
});
