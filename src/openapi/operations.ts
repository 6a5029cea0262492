import { defaultServiceMethods } from '../core/index.js';
import type { JsonSchema, OpenApiObject } from './declarations.js';
import { pathParameter, templatePath } from './parameters.js';
import { successResponse } from './responses.js';
import { oneOrMany, openObject, pageOf } from './schemas.js';
import { capitalize, ServiceDescription, type ServiceInput } from './service-description.js';

/** The path items of one service: the collection path and the id path (when it has operations). */
export type PathItems = Record<string, Record<string, unknown>>;

const standard = new Set<string>(defaultServiceMethods);

/**
 * The path items of a registered service (spec: "REST mapping"): `find` → `GET /path`, `get` →
 * `GET /path/{id}`, `create` and custom methods (`X-Service-Method`) → `POST /path`, `update` →
 * `PUT /path/{id}`, `patch` → `PATCH /path/{id}` (and `PATCH /path` where `multi` allows), `remove`
 * → `DELETE /path/{id}` (and `DELETE /path` where `multi` allows).
 */
export function describeService(input: ServiceInput): PathItems {
  const service = new ServiceDescription(input);
  const { path, opName, result } = service;
  const collection: Record<string, unknown> = {};
  const item: Record<string, unknown> = {};
  if (service.has('find')) collection.get = findOperation(service);
  if (service.has('get')) {
    item.get = service.operation(['get'], `get${opName}`, `Get one record of ${path}`, {
      parameters: service.docs.parameters,
      responses: service.success('get', '200', 'The record', result),
      byId: true,
    });
  }
  const customs = service.methods.filter((method) => !standard.has(method));
  if (service.has('create') || customs.length > 0) collection.post = postOperation(service, customs);
  if (service.has('update')) {
    item.put = service.operation(['update'], `update${opName}`, `Replace a record of ${path}`, {
      requestBody: service.body(service.data),
      responses: service.success('update', '200', 'The replaced record', result),
      byId: true,
    });
  }
  for (const [method, verb] of [
    ['patch', 'patch'],
    ['remove', 'delete'],
  ] as const) {
    if (!service.has(method)) continue;
    item[verb] = changeOperation(service, method, 'one');
    if (service.multi(method)) collection[verb] = changeOperation(service, method, 'many');
    else if (service.methodDocs(method).withoutId === true) {
      collection[verb] = changeOperation(service, method, 'without id');
    }
  }
  return pathItems(path, collection, item);
}

/** `GET /path`: the query as parameters; a page or an array of records. */
function findOperation(service: ServiceDescription): OpenApiObject {
  const { result, components, base } = service;
  const page = pageOf(result);
  const list = !service.paginate
    ? { type: 'array', items: result }
    : service.docs.result === undefined
      ? page
      : components.add(`${base}Page`, page);
  return service.operation(['find'], `find${service.opName}`, `Find ${service.path}`, {
    parameters: service.query,
    note: service.queryNote,
    responses: service.success('find', '200', service.paginate ? 'A page of records' : 'The records', list),
  });
}

/**
 * `PATCH` or `DELETE`: of one record by id; of every record the query matches (`multi`; answers an
 * array); or on the collection path with the same answer as by id (`withoutId`).
 */
function changeOperation(
  service: ServiceDescription,
  method: 'patch' | 'remove',
  target: 'one' | 'many' | 'without id',
): OpenApiObject {
  const { path, opName, result } = service;
  const [verb, done] = method === 'patch' ? ['Change', 'changed'] : ['Remove', 'removed'];
  const requestBody = method === 'patch' ? service.body(service.patchData) : undefined;
  if (target === 'many') {
    return service.operation(
      [method],
      `${method}${opName}Many`,
      `${verb} every record of ${path} the query matches`,
      {
        parameters: service.query,
        note: service.queryNote,
        requestBody,
        responses: service.success(method, '200', `The ${done} records`, { type: 'array', items: result }),
      },
    );
  }
  const byId = target === 'one';
  const operationId = `${method}${opName}${byId ? '' : 'WithoutId'}`;
  const summary = byId ? `${verb} a record of ${path}` : `${verb} without an id`;
  return service.operation([method], operationId, summary, {
    parameters: byId ? undefined : service.docs.parameters,
    requestBody,
    responses: service.success(method, '200', `The ${done} record`, result),
    byId,
  });
}

/** `POST /path`: `create`, and the custom methods chosen by the `X-Service-Method` header. */
function postOperation(service: ServiceDescription, customs: string[]): OpenApiObject {
  const { data, result, components, base, path } = service;
  const create = service.has('create');
  const bodies: JsonSchema[] = [];
  const responses: OpenApiObject = {};
  if (create) {
    const many = service.multi('create');
    bodies.push(many ? oneOrMany(data) : data);
    Object.assign(responses, service.success('create', '201', 'Created', many ? oneOrMany(result) : result));
  }
  const answers: JsonSchema[] = [];
  const lines: string[] = [];
  for (const method of customs) {
    const own = service.methodDocs(method);
    bodies.push(
      own.data === undefined ? openObject : components.add(`${base}${capitalize(method)}Data`, own.data),
    );
    const answer = service.resultOf(method, openObject);
    if (answer === null) responses['204'] = successResponse('', null);
    else answers.push(answer);
    lines.push(`- \`X-Service-Method: ${method}\`${own.summary === undefined ? '' : `: ${own.summary}`}`);
  }
  if (answers.length > 0) {
    const schema = answers.length === 1 ? answers[0]! : { anyOf: answers };
    responses['200'] = successResponse('The answer of the custom method', schema);
  }
  const methods = [...(create ? ['create'] : []), ...customs];
  const summary = create ? `Create a record in ${path}` : `Call a custom method of ${path}`;
  const operation = service.operation(methods, `${methods[0]}${service.opName}`, summary, {
    parameters: customs.length === 0 ? [] : [methodHeader(customs, !create)],
    requestBody: service.body(bodies.length === 1 ? bodies[0]! : { anyOf: bodies }),
    responses,
  });
  if (lines.length > 0) {
    const intro = `${create ? 'Without `X-Service-Method`: create. ' : ''}Custom methods:`;
    const description = [operation.description, `${intro}\n\n${lines.join('\n')}`];
    operation.description = description.filter(Boolean).join('\n\n');
  }
  return operation;
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

/** The collection and id path items, with the placeholders (and the id) as path parameters. */
function pathItems(
  path: string,
  collection: Record<string, unknown>,
  item: Record<string, unknown>,
): PathItems {
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
