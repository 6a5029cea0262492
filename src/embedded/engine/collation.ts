/**
 * Collation support: string comparison and canonical keys per MongoDB collation document
 * (`locale`, `strength` 1–3, `caseLevel`, `numericOrdering`, `caseFirst`). `locale: 'simple'` means binary.
 */

/** A MongoDB collation document (the subset the embedded server honours). */
export interface Collation {
  locale: string;
  strength?: number;
  caseLevel?: boolean;
  caseFirst?: 'upper' | 'lower' | 'off';
  numericOrdering?: boolean;
}

/** Returns the collation to use, or undefined for binary (`simple`/absent) comparison. */
export function normalizeCollation(value: unknown): Collation | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const c = value as Record<string, unknown>;
  if (typeof c['locale'] !== 'string' || c['locale'] === 'simple') return undefined;
  const out: Collation = { locale: c['locale'] };
  if (typeof c['strength'] === 'number') out.strength = c['strength'];
  if (typeof c['caseLevel'] === 'boolean') out.caseLevel = c['caseLevel'];
  if (c['caseFirst'] === 'upper' || c['caseFirst'] === 'lower' || c['caseFirst'] === 'off')
    out.caseFirst = c['caseFirst'];
  if (typeof c['numericOrdering'] === 'boolean') out.numericOrdering = c['numericOrdering'];
  return out;
}

/** True when both describe the same comparison. */
export function sameCollation(a: Collation | undefined, b: Collation | undefined): boolean {
  if (!a || !b) return !a && !b;
  return (
    a.locale === b.locale &&
    (a.strength ?? 3) === (b.strength ?? 3) &&
    (a.caseLevel ?? false) === (b.caseLevel ?? false) &&
    (a.numericOrdering ?? false) === (b.numericOrdering ?? false)
  );
}

/** The full collation document MongoDB reports for an index/collection collation. */
export function describeCollation(c: Collation): Record<string, unknown> {
  return {
    locale: c.locale,
    caseLevel: c.caseLevel ?? false,
    caseFirst: c.caseFirst ?? 'off',
    strength: c.strength ?? 3,
    numericOrdering: c.numericOrdering ?? false,
    alternate: 'non-ignorable',
    maxVariable: 'punct',
    normalization: false,
    backwards: false,
    version: '57.1',
  };
}

const collators = new Map<string, Intl.Collator>();

/** MongoDB's `@collation=` variant names whose Unicode extension (`-u-co-`) spelling differs. */
const ICU_VARIANTS: Record<string, string> = {
  phonebook: 'phonebk',
  traditional: 'trad',
  gb2312han: 'gb2312',
};

function sensitivity(c: Collation): Intl.CollatorOptions['sensitivity'] {
  const strength = c.strength ?? 3;
  if (strength === 1) return c.caseLevel ? 'case' : 'base';
  if (strength === 2) return 'accent';
  return 'variant';
}

/** A cached Intl.Collator for the collation. */
export function collator(c: Collation): Intl.Collator {
  const id = JSON.stringify([c.locale, c.strength, c.caseLevel, c.numericOrdering, c.caseFirst]);
  let found = collators.get(id);
  if (!found) {
    const [name = 'en', variant] = c.locale.split('@collation=');
    const locale = name === 'root' ? 'und' : name.replace(/_/g, '-');
    let resolved = 'en';
    try {
      resolved = Intl.Collator.supportedLocalesOf([locale]).length > 0 ? locale : 'en';
    } catch {
      resolved = 'en';
    }
    found = new Intl.Collator(resolved, {
      ...(variant
        ? { collation: (ICU_VARIANTS[variant] ?? variant) as Intl.CollatorOptions['collation'] }
        : {}),
      sensitivity: sensitivity(c),
      numeric: c.numericOrdering ?? false,
      caseFirst: c.caseFirst === 'upper' || c.caseFirst === 'lower' ? c.caseFirst : 'false',
      usage: 'sort',
    });
    collators.set(id, found);
  }
  return found;
}

/** Compares two strings under the collation (negative, 0, positive). */
export function compareStrings(a: string, b: string, c: Collation): number {
  return collator(c).compare(a, b);
}

/**
 * A canonical key for a string under a collation: equal keys ⇔ equal strings (approximation: strength 1
 * folds case and diacritics, strength 2 folds case, numericOrdering folds leading zeros in digit runs).
 */
export function collationKey(value: string, c: Collation): string {
  const strength = c.strength ?? 3;
  let out = value.normalize('NFC');
  if (strength === 1) {
    out = out.normalize('NFD').replace(/\p{M}/gu, '');
    if (!c.caseLevel) out = out.toLowerCase();
  } else if (strength === 2) out = out.toLowerCase();
  if (c.numericOrdering) out = out.replace(/\d+/g, (d) => d.replace(/^0+(?=\d)/, ''));
  return out;
}
