/**
 * The `pathname` and `search` of an origin-form request target (`/path?query`) as the WHATWG URL
 * parser would give them, read without running the parser. Only targets the parser leaves exactly as
 * they are qualify (`simpleTargetQuery`); anything else must be parsed with `new URL()`. No Node.js
 * imports: `createHandler` uses this through the runtime request and must run on any runtime.
 */

const PATH = 1;
const QUERY = 2;
/**
 * Per ASCII code, where the URL parser copies the character unchanged into an http(s) URL: in the
 * path (`PATH`), in the query (`QUERY`). A subset is enough: `'` only in the path (the parser
 * encodes it in the query of special schemes), `?`, `[` and `]` only in the query.
 */
const copied = new Uint8Array(128);
function allow(chars: string, where: number): void {
  for (let i = 0; i < chars.length; i++) copied[chars.charCodeAt(i)] = where;
}
allow('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.~!$&()*+,;=:@%/', PATH | QUERY);
allow("'", PATH);
allow('?[]', QUERY);

const SLASH = 47;
const DOT = 46;
const PERCENT = 37;
const QUESTION = 63;

/** True when the path character at `i` ends a segment: `/`, `?` or the end of the target. */
function endsSegment(target: string, i: number): boolean {
  if (i >= target.length) return true;
  const code = target.charCodeAt(i);
  return code === SLASH || code === QUESTION;
}

/**
 * True for a `.` at `dot` that the parser would treat as a dot segment: `.` or `..` as a whole
 * segment (`/./`, `/..`, `/.?`).
 */
function isDotSegment(target: string, dot: number): boolean {
  if (target.charCodeAt(dot - 1) !== SLASH) return false;
  if (endsSegment(target, dot + 1)) return true;
  return target.charCodeAt(dot + 1) === DOT && endsSegment(target, dot + 2);
}

/** What `simpleTargetQuery` returns for a target that needs the URL parser. */
export const NOT_SIMPLE = -2;

/**
 * For a target that `new URL(origin + target)` copies unchanged into its `pathname` and `search`
 * (so `origin + target` is its `href`), the index of its `?` (-1 when there is none); `NOT_SIMPLE`
 * for any other. Simple targets are origin-form, of ASCII characters outside the parser's
 * percent-encode sets, without a fragment, and with no dot segment (`.`, `..`) and no
 * percent-encoded dot (`%2e`, which the parser may read as one) in the path; anything else needs
 * the parser (absolute form, `*`, `..`, `%2e`, spaces, non-ASCII, `#`, …). One pass over the
 * characters, since this runs for every request, and it finds the `?` that `pathname` and `search`
 * need on the way.
 */
export function simpleTargetQuery(target: string): number {
  if (target.charCodeAt(0) !== SLASH) return NOT_SIMPLE;
  let query = -1;
  let where = PATH;
  for (let i = 1; i < target.length; i++) {
    const code = target.charCodeAt(i);
    if (code >= 128 || (copied[code]! & where) === 0) {
      if (code !== QUESTION || where === QUERY) return NOT_SIMPLE;
      where = QUERY; // the first `?` starts the query
      query = i;
    } else if (where === PATH) {
      if (code === DOT && isDotSegment(target, i)) return NOT_SIMPLE;
      if (code === PERCENT && target.charCodeAt(i + 1) === 50 && (target.charCodeAt(i + 2) | 32) === 101) {
        return NOT_SIMPLE; // `%2e` or `%2E`
      }
    }
  }
  return query;
}

/** The `URL.pathname` of a simple target: everything before `?` (`query`, the index of `?` or -1). */
export function targetPathname(target: string, query: number): string {
  return query === -1 ? target : target.slice(0, query);
}

/**
 * The `URL.search` of a simple target: `?` and what follows, `''` when there is none or it is empty
 * (`query`, the index of `?` or -1).
 */
export function targetSearch(target: string, query: number): string {
  return query === -1 || query === target.length - 1 ? '' : target.slice(query);
}
