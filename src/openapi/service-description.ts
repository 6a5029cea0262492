import { getServiceMeta, type Application } from '../core/index.js';
import type { JsonSchema, MethodDocs, OpenApiObject, ServiceDocs } from './declarations.js';
import { nestedQueryNote, queryParameters } from './parameters.js';
import { errorRef, successResponse } from './responses.js';
import { authenticatedBy } from './security.js';
import { nameOfPath, openObject, type Components } from './schemas.js';

/** Everything describing one service needs. */
export interface ServiceInput {
  app: Application;
  path: string;
  service: unknown;
  docs: ServiceDocs;
  components: Components;
  schemes: Record<string, OpenApiObject>;
}

/** The parts of one operation that differ between methods. */
export interface OperationParts {
  parameters?: OpenApiObject[];
  /** Said after the method's own description. */
  note?: string;
  requestBody?: OpenApiObject;
  responses: OpenApiObject;
  /** An id route: it answers 404 for an unknown id. */
  byId?: boolean;
}

/** `paginate` and `multi` of an adapter service (`service.options`), read without importing the adapter. */
function adapterOptions(service: unknown): { paginate?: unknown; multi?: unknown } {
  const original = getServiceMeta(service)?.original as { options?: unknown } | undefined;
  const options = original?.options;
  return typeof options === 'object' && options !== null ? options : {};
}

/** `stats` → `Stats`. */
export function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * What the operations of one service share: its exposed methods, its schemas as components, its
 * query parameters, and how an operation object is put together (errors, security, summary).
 */
export class ServiceDescription {
  readonly path: string;
  readonly docs: ServiceDocs;
  readonly components: Components;
  readonly methods: string[];
  /** Base of component names (`Message`). */
  readonly base: string;
  /** Base of operation ids, unique per path (`UsersUserIdMessages`). */
  readonly opName: string;
  readonly result: JsonSchema;
  readonly data: JsonSchema;
  readonly patchData: JsonSchema;
  readonly paginate: boolean;
  /** The query parameters and the service's extra `parameters`. */
  readonly query: OpenApiObject[];
  /** The description of query properties no parameter style expresses (`$or`, `$and`). */
  readonly queryNote: string | undefined;
  private readonly multiOption: unknown;

  constructor(private readonly input: ServiceInput) {
    const { path, docs, components, service } = input;
    this.path = path;
    this.docs = docs;
    this.components = components;
    this.methods = getServiceMeta(service)?.options.methods ?? [];
    this.base = docs.name ?? nameOfPath(path);
    this.opName = nameOfPath(path);
    this.result = docs.result === undefined ? openObject : components.add(this.base, docs.result);
    this.data = docs.data === undefined ? openObject : components.add(`${this.base}Data`, docs.data);
    this.patchData = docs.patch === undefined ? this.data : components.add(`${this.base}Patch`, docs.patch);
    const adapter = adapterOptions(service);
    this.paginate = docs.paginate ?? (typeof adapter.paginate === 'object' && adapter.paginate !== null);
    this.multiOption = docs.multi ?? adapter.multi;
    const query = queryParameters(docs.query, components, `${this.base}Query`);
    this.query = [...query.parameters, ...(docs.parameters ?? [])];
    this.queryNote = nestedQueryNote(query.nested);
  }

  /** Whether the service exposes `method`. */
  has(method: string): boolean {
    return this.methods.includes(method);
  }

  /** Whether `method` also works on many records (`multi: true` or listing it). */
  multi(method: string): boolean {
    const option = this.multiOption;
    return option === true || (Array.isArray(option) && option.includes(method));
  }

  /** The service's `openapi.methods` entry for `method` (empty when there is none). */
  methodDocs(method: string): MethodDocs {
    return this.docs.methods?.[method] ?? {};
  }

  /** The answer of `method`: its own `result`, else `fallback`; `null` when it returns nothing (204). */
  resultOf(method: string, fallback: JsonSchema): JsonSchema | null {
    const own = this.methodDocs(method);
    if (own.result === null) return null;
    if (own.result !== undefined)
      return this.components.add(`${this.base}${capitalize(method)}Result`, own.result);
    return own.contentType === undefined ? fallback : { type: 'string' };
  }

  /** `{ [status]: response }` for a successful call of `method`: `status`, or 204 when it returns nothing. */
  success(method: string, status: string, description: string, fallback: JsonSchema): OpenApiObject {
    const schema = this.resultOf(method, fallback);
    const response = successResponse(description, schema, this.methodDocs(method).contentType);
    return { [schema === null ? '204' : status]: response };
  }

  /** A required JSON request body. */
  body(schema: JsonSchema): OpenApiObject {
    return { required: true, content: { 'application/json': { schema } } };
  }

  /**
   * An operation object for `methods` (one, or `create` and the custom methods sharing `POST`): the
   * parts, plus 400 and `default` errors, 404 for id routes, and 401 and `security` where an
   * `authenticate` hook (or `MethodDocs.authentication`) guards one of the methods.
   */
  operation(methods: string[], operationId: string, summary: string, parts: OperationParts): OpenApiObject {
    const own = this.methodDocs(methods[0]!);
    const auth = methods.map(
      (method) =>
        authenticatedBy(this.input.app, this.input.service, method) ?? this.methodDocs(method).authentication,
    );
    const responses: OpenApiObject = { ...parts.responses, '400': errorRef('BadRequest') };
    if (auth.some((strategies) => strategies !== undefined)) responses['401'] = errorRef('NotAuthenticated');
    if (parts.byId) responses['404'] = errorRef('NotFound');
    responses.default = errorRef('Error');
    const security = securityOf(auth, this.input.schemes);
    const description = [own.description, parts.note].filter(Boolean).join('\n\n');
    const { parameters, requestBody } = parts;
    return {
      tags: [this.docs.tag ?? this.path],
      summary: own.summary ?? summary,
      ...(description !== '' && { description }),
      operationId,
      ...(parameters !== undefined && parameters.length > 0 && { parameters }),
      ...(requestBody !== undefined && { requestBody }),
      responses,
      ...(security !== undefined && { security }),
    };
  }
}

/**
 * The `security` of an operation from the strategies each of its methods allows: one alternative
 * per strategy with a scheme, plus `{}` (none) when one of the methods needs no authentication.
 */
function securityOf(
  auth: (string[] | undefined)[],
  schemes: Record<string, OpenApiObject>,
): Record<string, string[]>[] | undefined {
  if (auth.every((strategies) => strategies === undefined)) return undefined;
  const names = [...new Set(auth.flatMap((strategies) => strategies ?? []))].filter(
    (name) => name in schemes,
  );
  const alternatives: Record<string, string[]>[] = names.map((name) => ({ [name]: [] }));
  if (auth.some((strategies) => strategies === undefined)) alternatives.push({});
  return alternatives.length > 0 ? alternatives : undefined;
}
