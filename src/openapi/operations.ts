import { defaultServiceMethods, getServiceMeta, type Application } from '../core/index.js';
import type { JsonSchema, MethodDocs, OpenApiObject, ServiceDocs } from './declarations.js';
import { nestedQueryNote, pathParameter, queryParameters, templatePath } from './parameters.js';
import { errorRef, successResponse } from './responses.js';
import { authenticatedBy } from './security.js';
import { nameOfPath, oneOrMany, openObject, pageOf, type Components } from './schemas.js';

/** Everything describing one service needs. */
export interface ServiceInput {
  app: Application;
  path: string;
  service: unknown;
  docs: ServiceDocs;
  components: Components;
  schemes: Record<string, OpenApiObject>;
}

/** The path items of one service: the collection path and the id path (when it has operations). */
export type PathItems = Record<string, Record<string, unknown>>;

const standard = new Set<string>(defaultServiceMethods);

/** `paginate` and `multi` of an adapter service (`service.options`), read without importing the adapter. */
function adapterOptions(service: unknown): { paginate?: unknown; multi?: unknown } {
  const original = getServiceMeta(service)?.original as { options?: unknown } | undefined;
  const options = original?.options;
  return typeof options === 'object' && options !== null ? options : {};
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * The path items of a registered service (spec: "REST mapping"): `find` → `GET /path`, `get` →
 * `GET /path/{id}`, `create` and custom methods (`X-Service-Method`) → `POST /path`, `update` →
 * `PUT /path/{id}`, `patch` → `PATCH /path/{id}` (and `PATCH /path` where `multi` allows), `remove`
 * → `DELETE /path/{id}` (and `DELETE /path` where `multi` allows).
 */
export function describeService(input: ServiceInput): PathItems {
  const { path, docs, components, service } = input;
  const methods = getServiceMeta(service)?.options.methods ?? [];
  const base = docs.name ?? nameOfPath(path);
  const opName = nameOfPath(path);
  const result = docs.result === undefined ? openObject : components.add(base, docs.result);
  const data = docs.data === undefined ? openObject : components.add(`${base}Data`, docs.data);
  const patchData = docs.patch === undefined ? data : components.add(`${base}Patch`, docs.patch);
  const adapter = adapterOptions(service);
  const paginate = docs.paginate ?? (typeof adapter.paginate === 'object' && adapter.paginate !== null);
  const multiOption = docs.multi ?? adapter.multi;
  const multi = (method: string): boolean =>
    multiOption === true || (Array.isArray(multiOption) && multiOption.includes(method));
  const query = queryParameters(docs.query, components, `${base}Query`);
  const queryWithExtras = [...query.parameters, ...(docs.parameters ?? [])];
  const queryNote = nestedQueryNote(query.nested);
  const has = (method: string) => methods.includes(method);
  const methodDocs = (method: string): MethodDocs => docs.methods?.[method] ?? {};

  /** The answer of `method`: its own `result` override, else `fallback`; `null` for nothing (204). */
  const resultOf = (method: string, fallback: JsonSchema): JsonSchema | null => {
    const own = methodDocs(method).result;
    if (own === null) return null;
    if (own !== undefined) return components.add(`${base}${capitalize(method)}Result`, own);
    return methodDocs(method).contentType === undefined ? fallback : { type: 'string' };
  };
  const success = (method: string, status: string, description: string, fallback: JsonSchema) => {
    const schema = resultOf(method, fallback);
    return {
      [schema === null ? '204' : status]: successResponse(
        description,
        schema,
        methodDocs(method).contentType,
      ),
    };
  };
  const body = (schema: JsonSchema): OpenApiObject => ({
    required: true,
    content: { 'application/json': { schema } },
  });
  const operation = (
    operationMethods: string[],
    operationId: string,
    summary: string,
    parts: {
      parameters?: OpenApiObject[];
      /** Said after the method's own description. */
      note?: string;
      requestBody?: OpenApiObject;
      responses: OpenApiObject;
      byId?: boolean;
    },
  ): OpenApiObject => {
    const own = methodDocs(operationMethods[0]!);
    const auth = operationMethods.map(
      (method) => authenticatedBy(input.app, service, method) ?? methodDocs(method).authentication,
    );
    const responses: OpenApiObject = { ...parts.responses, '400': errorRef('BadRequest') };
    if (auth.some((strategies) => strategies !== undefined)) responses['401'] = errorRef('NotAuthenticated');
    if (parts.byId) responses['404'] = errorRef('NotFound');
    responses.default = errorRef('Error');
    const security = securityOf(auth, input.schemes);
    const description = [own.description, parts.note].filter(Boolean).join('\n\n');
    return {
      tags: [docs.tag ?? path],
      summary: own.summary ?? summary,
      ...(description !== '' && { description }),
      operationId,
      ...(parts.parameters !== undefined && parts.parameters.length > 0 && { parameters: parts.parameters }),
      ...(parts.requestBody !== undefined && { requestBody: parts.requestBody }),
      responses,
      ...(security !== undefined && { security }),
    };
  };

  const collection: Record<string, unknown> = {};
  const item: Record<string, unknown> = {};
  if (has('find')) {
    const list = paginate
      ? docs.result === undefined
        ? pageOf(result)
        : components.add(`${base}Page`, pageOf(result))
      : { type: 'array', items: result };
    collection.get = operation(['find'], `find${opName}`, `Find ${path}`, {
      parameters: queryWithExtras,
      note: queryNote,
      responses: success('find', '200', paginate ? 'A page of records' : 'The records', list),
    });
  }
  if (has('get')) {
    item.get = operation(['get'], `get${opName}`, `Get one record of ${path}`, {
      parameters: docs.parameters,
      responses: success('get', '200', 'The record', result),
      byId: true,
    });
  }
  const customs = methods.filter((method) => !standard.has(method));
  if (has('create') || customs.length > 0) {
    collection.post = postOperation();
  }
  if (has('update')) {
    item.put = operation(['update'], `update${opName}`, `Replace a record of ${path}`, {
      requestBody: body(data),
      responses: success('update', '200', 'The replaced record', result),
      byId: true,
    });
  }
  for (const [method, verb, words] of [
    ['patch', 'patch', 'Change'],
    ['remove', 'delete', 'Remove'],
  ] as const) {
    if (!has(method)) continue;
    const requestBody = method === 'patch' ? body(patchData) : undefined;
    item[verb] = operation([method], `${method}${opName}`, `${words} a record of ${path}`, {
      requestBody,
      responses: success(method, '200', `The ${method === 'patch' ? 'changed' : 'removed'} record`, result),
      byId: true,
    });
    if (multi(method)) {
      collection[verb] = operation(
        [method],
        `${method}${opName}Many`,
        `${words} every record of ${path} the query matches`,
        {
          parameters: queryWithExtras,
          note: queryNote,
          requestBody,
          responses: success(method, '200', `The ${method === 'patch' ? 'changed' : 'removed'} records`, {
            type: 'array',
            items: result,
          }),
        },
      );
    } else if (methodDocs(method).withoutId === true) {
      collection[verb] = operation([method], `${method}${opName}WithoutId`, `${words} (without an id)`, {
        parameters: docs.parameters,
        requestBody,
        responses: success(method, '200', `The ${method === 'patch' ? 'changed' : 'removed'} record`, result),
      });
    }
  }

  /** `POST /path`: `create`, and the custom methods chosen by the `X-Service-Method` header. */
  function postOperation(): OpenApiObject {
    const bodies: JsonSchema[] = [];
    const responses: OpenApiObject = {};
    const lines: string[] = [];
    if (has('create')) {
      bodies.push(multi('create') ? oneOrMany(data) : data);
      Object.assign(
        responses,
        success('create', '201', 'Created', multi('create') ? oneOrMany(result) : result),
      );
    }
    const answers: JsonSchema[] = [];
    for (const method of customs) {
      const own = methodDocs(method);
      bodies.push(
        own.data === undefined ? openObject : components.add(`${base}${capitalize(method)}Data`, own.data),
      );
      const answer = resultOf(method, openObject);
      if (answer === null) responses['204'] = successResponse('', null);
      else answers.push(answer);
      lines.push(`- \`X-Service-Method: ${method}\`${own.summary === undefined ? '' : `: ${own.summary}`}`);
    }
    if (answers.length > 0) {
      const schema = answers.length === 1 ? answers[0]! : { anyOf: answers };
      responses['200'] = successResponse('The answer of the custom method', schema);
    }
    const parameters = customs.length === 0 ? [] : [methodHeader(customs, !has('create'))];
    const methodsHere = [...(has('create') ? ['create'] : []), ...customs];
    const summary = has('create') ? `Create a record in ${path}` : `Call a custom method of ${path}`;
    const op = operation(methodsHere, `${methodsHere[0]}${opName}`, summary, {
      parameters,
      requestBody: body(bodies.length === 1 ? bodies[0]! : { anyOf: bodies }),
      responses,
    });
    if (lines.length > 0) {
      const intro = `${has('create') ? 'Without `X-Service-Method`: create. ' : ''}Custom methods:`;
      op.description = [op.description, `${intro}\n\n${lines.join('\n')}`].filter(Boolean).join('\n\n');
    }
    return op;
  }

  const { template, names } = templatePath(path);
  const routeParameters = names.map((name) => pathParameter(name));
  const idName = names.includes('id') ? 'recordId' : 'id';
  const items: PathItems = {};
  if (Object.keys(collection).length > 0) {
    items[template] = { ...(routeParameters.length > 0 && { parameters: routeParameters }), ...collection };
  }
  if (Object.keys(item).length > 0) {
    const idParameter = pathParameter(idName, 'The record id');
    items[`${template === '/' ? '' : template}/{${idName}}`] = {
      parameters: [...routeParameters, idParameter],
      ...item,
    };
  }
  return items;
}

/** The `X-Service-Method` header parameter (spec: "REST mapping"). */
function methodHeader(customs: string[], required: boolean): OpenApiObject {
  return {
    name: 'X-Service-Method',
    in: 'header',
    required,
    description: 'The custom method to run instead of `create`.',
    schema: { type: 'string', enum: customs },
  };
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
