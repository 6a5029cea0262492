import { BadRequest } from '../errors/index.js';

/** What a route lookup finds: the value registered at the path, the placeholder values and the id. */
export interface RouteMatch<T> {
  value: T;
  /** The path the value was registered at, without leading or trailing slashes. */
  path: string;
  /** Placeholder values, URL-decoded, e.g. `{ userId: '42' }` for `users/:userId/messages`. */
  route: Record<string, string>;
  /** The URL-decoded segment after the service path, or `null` when there is none. */
  id: string | null;
}

interface Node<T> {
  children: Map<string, Node<T>>;
  /**
   * The same children as a list while there are at most `FEW_CHILDREN` (else `null`): comparing a
   * request's segment with a few names costs less than hashing the new segment string for the map.
   */
  few: { segment: string; node: Node<T> }[] | null;
  placeholders: { name: string; node: Node<T> }[];
  entry?: { value: T; path: string };
}

const FEW_CHILDREN = 8;
const SLASH = 47;

const newNode = <T>(): Node<T> => ({ children: new Map(), few: [], placeholders: [] });

/** The child of `node` for the exact `segment`, or `undefined`. */
function childOf<T>(node: Node<T>, segment: string): Node<T> | undefined {
  const few = node.few;
  if (few === null) return node.children.get(segment);
  for (let i = 0; i < few.length; i++) {
    const child = few[i]!;
    if (child.segment === segment) return child.node;
  }
  return undefined;
}

/** Removes leading and trailing slashes: `/users/` → `users`. */
export function stripSlashes(path: string): string {
  const start = afterSlashes(path);
  return path.slice(start, beforeSlashes(path, start));
}

/** The index of the first character of `path` that is not a slash (`path.length` when none is). */
function afterSlashes(path: string): number {
  let start = 0;
  while (start < path.length && path.charCodeAt(start) === SLASH) start++;
  return start;
}

/** The end of `path` without its trailing slashes, not before `start`. */
function beforeSlashes(path: string, start: number): number {
  let end = path.length;
  while (end > start && path.charCodeAt(end - 1) === SLASH) end--;
  return end;
}

function decode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new BadRequest(`Invalid percent-encoding in path segment '${segment.slice(0, 100)}'`);
  }
}

/**
 * A segment tree of service paths with `:name` placeholders (spec: "REST mapping", paths with
 * placeholders). Exact segments win over placeholders; placeholders are tried in insertion order.
 */
export class Router<T> {
  private root: Node<T> = newNode();

  /** Registers `value` at `path`. Throws `BadRequest` when the path is already taken. */
  insert(path: string, value: T): void {
    const clean = stripSlashes(path);
    let node = this.root;
    for (const segment of clean === '' ? [] : clean.split('/')) {
      if (segment.startsWith(':')) {
        const name = segment.slice(1);
        let next = node.placeholders.find((p) => p.name === name);
        if (next === undefined) {
          next = { name, node: newNode() };
          node.placeholders.push(next);
        }
        node = next.node;
      } else {
        let next = node.children.get(segment);
        if (next === undefined) {
          next = newNode();
          node.children.set(segment, next);
          node.few =
            node.children.size > FEW_CHILDREN
              ? null
              : Array.from(node.children, ([name, child]) => ({ segment: name, node: child }));
        }
        node = next;
      }
    }
    if (node.entry !== undefined) throw new BadRequest(`Path '${clean}' already exists`);
    node.entry = { value, path: clean };
  }

  /** Unregisters the value at `path`; returns whether there was one. */
  remove(path: string): boolean {
    const clean = stripSlashes(path);
    let node: Node<T> | undefined = this.root;
    for (const segment of clean === '' ? [] : clean.split('/')) {
      node = segment.startsWith(':')
        ? node.placeholders.find((p) => p.name === segment.slice(1))?.node
        : childOf(node, segment);
      if (node === undefined) return false;
    }
    const had = node.entry !== undefined;
    delete node.entry;
    return had;
  }

  /**
   * Finds the value for a request path: the registered path itself (id `null`) or the path plus one
   * id segment. Returns `null` when nothing matches. Throws `BadRequest` on malformed percent-encoding.
   */
  lookup(path: string): RouteMatch<T> | null {
    // The path without leading and trailing slashes is `path[start, end)`, not a new string.
    const start = afterSlashes(path);
    const end = beforeSlashes(path, start);
    const exact = this.matchExact(path, start, end);
    if (exact !== undefined) return exact;
    return this.match(this.root, start === end ? [] : path.slice(start, end).split('/'), 0, {});
  }

  /**
   * The match when following exact segments of `path[start, end)` finds it: the registered path
   * itself, or its id when the path's node has no placeholders that could take the last segment
   * first. This is what `match` finds first in those cases (it tries exact segments before
   * placeholders), found without splitting the path or backtracking; `undefined` means "ask `match`".
   */
  private matchExact(path: string, start: number, end: number): RouteMatch<T> | null | undefined {
    let node = this.root;
    if (start === end) return node.entry ? { value: node.entry.value, path: '', route: {}, id: null } : null;
    for (;;) {
      // `indexOf` rather than a loop over the characters: V8 compiles `charCodeAt` to more
      // instructions per character than the one call costs for a segment of a few characters.
      let stop = path.indexOf('/', start);
      if (stop === -1 || stop > end) stop = end;
      const segment = path.slice(start, stop);
      const child = childOf(node, segment);
      if (child === undefined) {
        if (stop !== end || node.entry === undefined || node.placeholders.length > 0) return undefined;
        return { value: node.entry.value, path: node.entry.path, route: {}, id: decode(segment) };
      }
      node = child;
      if (stop === end) {
        return node.entry
          ? { value: node.entry.value, path: node.entry.path, route: {}, id: null }
          : undefined;
      }
      start = stop + 1;
    }
  }

  private match(
    node: Node<T>,
    segments: string[],
    index: number,
    route: Record<string, string>,
  ): RouteMatch<T> | null {
    if (index === segments.length) {
      return node.entry
        ? { value: node.entry.value, path: node.entry.path, route: { ...route }, id: null }
        : null;
    }
    const raw = segments[index] as string;
    const child = childOf(node, raw);
    if (child !== undefined) {
      const found = this.match(child, segments, index + 1, route);
      if (found) return found;
    }
    for (const placeholder of node.placeholders) {
      route[placeholder.name] = decode(raw);
      const found = this.match(placeholder.node, segments, index + 1, route);
      if (found) return found;
      delete route[placeholder.name];
    }
    if (index === segments.length - 1 && node.entry !== undefined) {
      return { value: node.entry.value, path: node.entry.path, route: { ...route }, id: decode(raw) };
    }
    return null;
  }
}
