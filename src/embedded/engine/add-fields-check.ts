/**
 * The paths of an `$addFields`/`$set` spec checked as MongoDB 7.0's ProjectionSpecValidator checks them
 * (src/mongo/db/exec/add_fields_projection_executor.cpp), before any expression of the spec is parsed:
 * every field path is valid, a sub-object is either one expression or fields without dots, and no two
 * paths collide (`{ 'a.b': 1, a: 2 }`, `{ a: { b: 1 }, 'a.b': 2 }`), since the stage could not say which
 * value wins.
 */
import { bsonText } from './bson-text.js';
import { checkFieldPath } from './field-path.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

/**
 * MongoDB's PathComparator order (src/mongo/db/pipeline/dependencies.cpp): bytes compared unsigned, but
 * `.` before every other byte, so that a path sorts right before the paths it prefixes. The validator
 * names the first of those in this order when a path prefixes several earlier ones.
 */
function pathCompare(a: string, b: string): number {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  const dot = 0x2e;
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const l = left[i]!;
    const r = right[i]!;
    if (l === r) continue;
    if (l === dot) return -1;
    if (r === dot) return 1;
    return l - r;
  }
  return left.length - right.length;
}

/** The paths one spec sets so far, and the raw spec its messages print. */
class Validator {
  private readonly seen: string[] = [];

  constructor(
    private readonly raw: Doc,
    private readonly prefix: string,
  ) {}

  private fail(code: number, message: string): never {
    throw new CommandError(code, this.prefix + message);
  }

  /**
   * ensurePathDoesNotConflictOrThrow: `path` may not equal, extend or prefix a path already set. Its
   * sorted set makes the one in conflict the same path, the path's one prefix, or else the first (in
   * PathComparator order) of the paths it prefixes.
   */
  private claim(path: string): void {
    const conflict =
      this.seen.find((earlier) => earlier === path) ??
      this.seen.find((earlier) => path.startsWith(`${earlier}.`)) ??
      this.seen.filter((earlier) => earlier.startsWith(`${path}.`)).sort(pathCompare)[0];
    this.seen.push(path);
    if (conflict === undefined) return;
    this.fail(
      40176,
      `specification contains two conflicting paths. Cannot specify both '${path}' and '${conflict}': ${bsonText(this.raw)}`,
    );
  }

  /** parseElement: a sub-object is walked, anything else (arrays included) sets its path. */
  element(value: unknown, path: string): void {
    if (isPlainObject(value)) this.nested(value, path);
    else this.claim(path);
  }

  /**
   * parseNestedObject: a `$` field makes the object an expression, which must be alone and sets `path`
   * itself; other fields may not be dotted. An empty object sets nothing here (it is the literal `{}`).
   */
  private nested(spec: Doc, path: string): void {
    const fields = Object.entries(spec);
    for (const [name, value] of fields) {
      if (name.startsWith('$')) {
        if (fields.length !== 1) {
          this.fail(
            40181,
            `an expression specification must contain exactly one field, the name of the expression. Found ${fields.length} fields in ${bsonText(spec)}, while parsing object ${bsonText(this.raw)}`,
          );
        }
        this.claim(path);
        continue;
      }
      if (name.includes('.')) {
        this.fail(40183, `cannot use dotted field name '${name}' in a sub object: ${bsonText(this.raw)}`);
      }
      // The full path becomes a FieldPath, which checks the new part (an empty name ends it with `.`).
      const full = `${path}.${name}`;
      checkFieldPath(full, this.prefix);
      this.element(value, full);
    }
  }
}

/**
 * Checks the field paths of an `$addFields`/`$set` spec (already known to be an object), in MongoDB's
 * order: each top-level field is a valid path (`checkFieldPath`), then its value is walked. Messages
 * follow `prefix` (`Invalid $set :: caused by :: `: MongoDB adds it to every error of the stage's parse).
 * @throws CommandError 40176 for colliding paths, 40181 for an expression object with more than one
 * field, 40183 for a dotted name in a sub-object, or a field path error of `checkFieldPath`.
 */
export function checkAddFieldsPaths(spec: Doc, prefix: string): void {
  const validator = new Validator(spec, prefix);
  for (const [field, value] of Object.entries(spec)) {
    checkFieldPath(field, prefix);
    validator.element(value, field);
  }
}
