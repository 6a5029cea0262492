/**
 * The context object `createHandler` gives its middleware (the `HandlerContext` interface). Parsing
 * the request URL is a noticeable part of a small request, and most requests need only its path and
 * query string, so for a runtime request whose target the URL parser would copy as it is, `url` is
 * parsed on first use and `pathname` / `search` are read from the target until then. Once `url` has
 * been read (and perhaps changed by middleware), they come from it.
 */
import type { Application, ServiceLookup } from '../core/index.js';
import type { HandlerContext, HandlerParams } from './declarations.js';
import { targetPathname, targetSearch } from './request-target.js';
import { getSimpleQuery, getSimpleTarget, parseRequestUrl } from './runtime-request.js';

/** `HandlerContext` with its URL parsed only when read. */
export class RequestContext implements HandlerContext {
  readonly app: Application;
  readonly request: Request;
  params: HandlerParams;
  lookup?: ServiceLookup | null;
  declare data?: unknown;
  declare response?: Response;
  declare logError?: (error: unknown) => void;
  #url: URL | undefined;
  /** The request target, while `url` has not been parsed. */
  readonly #target: string | undefined;
  /** The index of `?` in the target, or -1 (found by the runtime request's check of the target). */
  readonly #query: number = -1;

  constructor(app: Application, request: Request, params: HandlerParams) {
    this.app = app;
    this.request = request;
    this.params = params;
    this.#target = getSimpleTarget(request);
    if (this.#target === undefined) this.#url = parseRequestUrl(request);
    else this.#query = getSimpleQuery(request);
  }

  get url(): URL {
    this.#url ??= new URL(this.request.url);
    return this.#url;
  }

  set url(url: URL) {
    this.#url = url;
  }

  /** `url.pathname`, without parsing the URL when it has not been. */
  get pathname(): string {
    return this.#url === undefined ? targetPathname(this.#target as string, this.#query) : this.#url.pathname;
  }

  /** `url.search`, without parsing the URL when it has not been. */
  get search(): string {
    return this.#url === undefined ? targetSearch(this.#target as string, this.#query) : this.#url.search;
  }
}

/** `context.url.pathname`, read without parsing the URL when that can be avoided. */
export function getPathname(context: HandlerContext): string {
  return context instanceof RequestContext ? context.pathname : context.url.pathname;
}

/** `context.url.search`, read without parsing the URL when that can be avoided. */
export function getSearch(context: HandlerContext): string {
  return context instanceof RequestContext ? context.search : context.url.search;
}
