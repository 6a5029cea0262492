/**
 * The `pathname` and `search` of an origin-form request target (`/path?query`) as the WHATWG URL
 * parser would give them, read without running the parser. Only targets the parser leaves exactly as
 * they are qualify (`isSimpleTarget`); anything else must be parsed with `new URL()`. No Node.js
 * imports: `createHandler` uses this through the runtime request and must run on any runtime.
 */

// Characters the URL parser copies unchanged into an http(s) path and query; a subset is enough.
const simpleTarget = /^\/[\w\-.~!$&'()*+,;=:@%/]*(?:\?[\w\-.~!$&()*+,;=:@%/?[\]]*)?$/;
// `.` or `..` as a whole path segment, or a percent-encoded dot: the parser would rewrite the path.
const dotSegment = /\/\.\.?(?:[/?]|$)|%2e/i;

/**
 * True when `new URL(origin + target)` copies `target` unchanged into its `pathname` and `search`
 * (so `origin + target` is its `href`): an origin-form target of ASCII characters outside the
 * parser's percent-encode sets, without a fragment and without dot segments in the path. False for
 * anything that needs the parser (absolute form, `*`, `..`, `%2e`, spaces, non-ASCII, `#`, …).
 */
export function isSimpleTarget(target: string): boolean {
  if (!simpleTarget.test(target)) return false;
  const query = target.indexOf('?');
  return !dotSegment.test(query === -1 ? target : target.slice(0, query));
}

/** The `URL.pathname` of a simple target: everything before `?`. */
export function targetPathname(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** The `URL.search` of a simple target: `?` and what follows, `''` when there is none or it is empty. */
export function targetSearch(target: string): string {
  const query = target.indexOf('?');
  return query === -1 || query === target.length - 1 ? '' : target.slice(query);
}
