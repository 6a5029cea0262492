/**
 * Reading the `collation` document of a command the way MongoDB validates it: known fields only, each of
 * its type, `strength` 1–5, and a locale from MongoDB's list (an unknown locale is refused, never replaced
 * by another language's rules).
 */
import { normalizeCollation } from '../engine/collation.js';
import type { Collation } from '../engine/collation.js';
import { bsonTypeName, isPlainObject } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The locales MongoDB's collation accepts (its manual's "Collation Locales and Default Parameters"). */
const LOCALES = new Set(
  (
    'af sq am ar hy as az bn be bs bs_Cyrl bg my ca chr zh zh_Hant hr cs da nl dz en en_US ' +
    'en_US_POSIX eo et ee fo fil fi fr fr_CA gl ka de de_AT el gu ha haw he hi hu is ig smn id ga it ' +
    'ja kl kn kk km kok ko ky lkt lo lv ln lt dsb lb mk ms ml mt mr mn ne se nb nn or om ps fa fa_AF ' +
    'pl pt pa ro ru sr sr_Latn si sk sl es sw sv ta te th bo to tr uk hsb ur ug uz vi wae cy yi yo zu'
  ).split(' '),
);

const FIELD_TYPES: Record<string, 'string' | 'bool' | 'number'> = {
  locale: 'string',
  strength: 'number',
  caseLevel: 'bool',
  caseFirst: 'string',
  numericOrdering: 'bool',
  alternate: 'string',
  maxVariable: 'string',
  normalization: 'bool',
  backwards: 'bool',
  version: 'string',
};

const ENUMS: Record<string, string[]> = {
  caseFirst: ['upper', 'lower', 'off'],
  alternate: ['non-ignorable', 'shifted'],
  maxVariable: ['punct', 'space'],
};

/** Where a collation document was given: its rules for an empty `{}` differ. */
export type CollationUse = 'operation' | 'create' | 'index';

function shellForm(doc: Record<string, unknown>): string {
  const fields = Object.entries(doc).map(
    ([k, v]) => `${k}: ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`,
  );
  return `{ ${fields.join(', ')} }`;
}

function checkType(field: string, value: unknown): void {
  const expected = FIELD_TYPES[field]!;
  const actual = bsonTypeName(value);
  const ok = expected === 'number' ? typeof value === 'number' : actual === expected;
  if (!ok) {
    const name = expected === 'number' ? 'int' : expected;
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field 'collation.${field}' is the wrong type '${actual}', expected type '${name}'`,
    );
  }
}

function checkLocale(locale: string, doc: Record<string, unknown>): void {
  const base = locale.split('@')[0]!;
  if (LOCALES.has(base)) return;
  const near = [...LOCALES].find((l) => l.toLowerCase() === base.toLowerCase().replace(/-/g, '_'));
  const hint = near ? `. Did you mean '${near}'?` : '';
  throw new CommandError(ErrorCodes.BadValue, `Field 'locale' is invalid in: ${shellForm(doc)}${hint}`);
}

/**
 * The collation a command's `collation` field asks for: undefined for none, `{}` (outside `create` and
 * index specs) or `locale: 'simple'`.
 * @throws CommandError TypeMismatch (14) for a non-document or a field of the wrong type, 40415 for an
 * unknown field, 40414 for a missing locale, BadValue (2) for an unknown locale or enumeration value, or
 * an empty document where one is required, 51024 for a strength outside 1–5.
 */
export function parseCollation(value: unknown, use: CollationUse = 'operation'): Collation | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field 'collation' is the wrong type '${bsonTypeName(value)}', expected type 'object'`,
    );
  }
  const fields = Object.keys(value);
  if (fields.length === 0) {
    if (use === 'index')
      throw new CommandError(ErrorCodes.BadValue, "The field 'collation' cannot be an empty object.");
    if (use === 'create')
      throw new CommandError(40414, "BSON field 'create.collation.locale' is missing but a required field");
    return undefined;
  }
  for (const field of fields) {
    if (!(field in FIELD_TYPES))
      throw new CommandError(40415, `BSON field 'collation.${field}' is an unknown field.`);
    checkType(field, value[field]);
    const allowed = ENUMS[field];
    if (allowed && !allowed.includes(value[field] as string)) {
      throw new CommandError(
        ErrorCodes.BadValue,
        `Enumeration value '${String(value[field])}' for field 'collation.${field}' is not a valid value.`,
      );
    }
  }
  const locale = value['locale'];
  if (locale === undefined)
    throw new CommandError(40414, "BSON field 'collation.locale' is missing but a required field");
  const strength = value['strength'];
  if (typeof strength === 'number' && !(strength >= 1 && strength <= 5)) {
    const bound = strength < 1 ? '>= 1' : '<= 5';
    throw new CommandError(51024, `BSON field 'strength' value must be ${bound}, actual value '${strength}'`);
  }
  if (locale !== 'simple') checkLocale(locale as string, value);
  return normalizeCollation(value);
}
