/**
 * Simple full-text search for `$text` (with a text index) and the `$search` aggregation stage.
 * Supported subset: whitespace/punctuation tokenization, case and diacritic folding, an English stop-word
 * list, light suffix stemming (s/es/ed/ing/ly), `"exact phrases"` (all must occur), `-negated` terms, and
 * a score that sums field weights × term frequency. No languages other than English, no fuzzy matching.
 */
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

const STOP = new Set(
  'a an and are as at be but by for from has have he her his i in is it its of on or our she that the their them they this to was we were will with you your'.split(
    ' ',
  ),
);

function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Stems a folded token (very light English stemmer). */
export function stem(token: string): string {
  let t = token;
  if (t.length > 4 && t.endsWith('ies')) t = t.slice(0, -3) + 'i';
  else if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') && !t.endsWith('us')) t = t.slice(0, -1);
  for (const suffix of ['ing', 'ed', 'ly']) {
    if (t.length > suffix.length + 2 && t.endsWith(suffix)) {
      t = t.slice(0, -suffix.length);
      if (/([^aeiouls])\1$/.test(t)) t = t.slice(0, -1);
      break;
    }
  }
  if (t.length > 4 && t.endsWith('e')) t = t.slice(0, -1);
  return t;
}

/** Tokens of a text (folded, stemmed, stop words dropped). */
export function tokens(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0 && !STOP.has(t))
    .map(stem);
}

/** A parsed `$search` string. */
export interface TextQuery {
  terms: string[];
  phrases: string[];
  negated: string[];
}

/** Parses a `$text.$search` string: words, "phrases", -negations. */
export function parseTextQuery(search: string): TextQuery {
  const phrases: string[] = [];
  const rest = search.replace(/"([^"]*)"/g, (_m, p: string) => {
    if (p.trim()) phrases.push(fold(p.trim()));
    return ' ';
  });
  const terms: string[] = [];
  const negated: string[] = [];
  for (const word of rest.split(/\s+/)) {
    if (!word) continue;
    if (word.startsWith('-') && word.length > 1) negated.push(...tokens(word.slice(1)));
    else terms.push(...tokens(word));
  }
  for (const p of phrases) terms.push(...tokens(p));
  return { terms: [...new Set(terms)], phrases, negated };
}

function strings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (isPlainObject(value)) for (const v of Object.values(value)) strings(v, out);
}

function fieldStrings(doc: Doc, path: string): string[] {
  const out: string[] = [];
  if (path === '$**') {
    strings(doc, out);
    return out;
  }
  let values: unknown[] = [doc];
  for (const part of path.split('.')) {
    const next: unknown[] = [];
    for (const v of values) {
      if (Array.isArray(v)) for (const el of v) next.push(isPlainObject(el) ? el[part] : undefined);
      else if (isPlainObject(v)) next.push(v[part]);
    }
    values = next;
  }
  for (const v of values) strings(v, out);
  return out;
}

/**
 * True when `doc` has a term (a token left after stop words) in a string at one of `paths`: a text
 * index holds a key per term (fts_index_format.cpp `FTSIndexFormat::getKeys`), so one without a term
 * is not in it ("text indexes are always sparse", manual, Sparse Indexes).
 */
export function hasTextTerms(doc: Doc, paths: readonly string[]): boolean {
  return paths.some((path) => fieldStrings(doc, path).some((text) => tokens(text).length > 0));
}

/** The text score of a document (0 when it does not match) over weighted fields. */
export function textScore(doc: Doc, query: TextQuery, weights: Record<string, number>): number {
  let score = 0;
  let allText = '';
  const hits = new Set<string>();
  for (const [path, weight] of Object.entries(weights)) {
    for (const text of fieldStrings(doc, path)) {
      allText += ' ' + fold(text);
      const toks = tokens(text);
      if (toks.length === 0) continue;
      for (const term of query.terms) {
        const n = toks.filter((t) => t === term).length;
        if (n > 0) {
          hits.add(term);
          score += (weight * n) / toks.length + weight * 0.5;
        }
      }
    }
  }
  if (hits.size === 0) return 0;
  if (query.phrases.some((p) => !allText.includes(p))) return 0;
  const all = tokens(allText);
  if (query.negated.some((n) => all.includes(n))) return 0;
  return score;
}
