import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openapi, type OpenApiDocument } from 'plume/openapi';
import { fixtureApp } from './fixture.js';

// Deep JSON read in assertions.
type Loose = Record<string, any>;

const document: OpenApiDocument = openapi(fixtureApp(), {
  info: { title: 'Fixture', version: '2.0.0' },
  servers: [{ url: 'https://api.example.test' }],
});
const paths = document.paths as Loose;
/** A parameter, or the component a `$ref` names. */
const resolve = (parameter: Loose): Loose =>
  parameter.$ref ? document.components.parameters![parameter.$ref.split('/').pop()]! : parameter;

describe('openapi(app, options)', () => {
  it('builds a document the OpenAPI 3.1 schema accepts', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does reject a broken document (a path item key must start with '/').
    const broken = { ...document, paths: { things: paths['/things'] } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
    expect(document.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('takes info and servers from the options, and one tag per service', () => {
    expect(document.info).toEqual({ title: 'Fixture', version: '2.0.0' });
    expect(document.servers).toEqual([{ url: 'https://api.example.test' }]);
    expect(document.tags).toEqual([
      { name: 'authentication' },
      { name: 'things', description: 'Things on shelves' },
      { name: 'notes' },
      { name: 'readonly' },
      { name: 'sessions' },
    ]);
    expect(paths['/shelves/{shelfId}/things'].get.tags).toEqual(['things']);
  });

  it('has a path item per service path and per id route, placeholders as path parameters, none for services left out', () => {
    expect(Object.keys(paths)).toEqual([
      '/authentication',
      '/authentication/{id}',
      '/things',
      '/things/{id}',
      '/shelves/{shelfId}/things',
      '/shelves/{shelfId}/things/{id}',
      '/notes',
      '/notes/{id}',
      '/readonly/{id}',
      '/sessions',
      '/sessions/{id}',
    ]);
    expect(paths['/shelves/{shelfId}/things'].parameters).toEqual([
      { name: 'shelfId', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    expect(paths['/shelves/{shelfId}/things/{id}'].parameters.map((p: Loose) => p.name)).toEqual([
      'shelfId',
      'id',
    ]);
  });

  it('lists exactly the operations the services have, with patch and remove on the collection only where multi allows', () => {
    const verbs = (path: string) => Object.keys(paths[path]).filter((key) => key !== 'parameters');
    expect(verbs('/things')).toEqual(['get', 'post', 'patch', 'delete']);
    expect(verbs('/things/{id}')).toEqual(['get', 'put', 'patch', 'delete']);
    expect(verbs('/notes')).toEqual(['get', 'post']);
    expect(verbs('/notes/{id}')).toEqual(['get']);
    expect(verbs('/readonly/{id}')).toEqual(['get']);
    expect(verbs('/authentication')).toEqual(['post']);
    expect(verbs('/authentication/{id}')).toEqual(['delete']);
    // withoutId: the collection path answers like the id path (not an array), not a multi operation.
    expect(verbs('/sessions')).toEqual(['delete']);
    expect(paths['/sessions'].delete.responses['200']).toEqual(
      paths['/sessions/{id}'].delete.responses['200'],
    );
  });

  it('answers find with the pagination envelope where paginate is set and a plain array where not', () => {
    const schemas = document.components.schemas as Loose;
    expect(paths['/things'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ThingPage',
    });
    expect(schemas.ThingPage).toEqual({
      type: 'object',
      required: ['total', 'limit', 'skip', 'data'],
      properties: {
        total: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 0 },
        skip: { type: 'integer', minimum: 0 },
        data: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
      },
    });
    expect(
      paths['/shelves/{shelfId}/things'].get.responses['200'].content['application/json'].schema,
    ).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Thing' },
    });
    // The same schema declared by two services is one component.
    expect(
      Object.keys(schemas)
        .filter((name) => name.startsWith('Thing'))
        .sort(),
    ).toEqual(['Thing', 'ThingArchiveData', 'ThingArchiveResult', 'ThingData', 'ThingPage', 'ThingPatch']);
  });

  it('describes object ids as the 24-hex-digit strings they are sent as', () => {
    expect((document.components.schemas as Loose).Thing.properties._id).toEqual({
      type: 'string',
      pattern: '^[0-9a-fA-F]{24}$',
    });
  });

  it('uses the declared data, patch and result schemas for bodies and answers, with the real status codes', () => {
    const json = (operation: Loose, status: string) =>
      operation.responses[status].content['application/json'].schema;
    const body = (operation: Loose) => operation.requestBody.content['application/json'].schema;
    const thing = { $ref: '#/components/schemas/Thing' };
    expect(body(paths['/things/{id}'].put)).toEqual({ $ref: '#/components/schemas/ThingData' });
    expect(body(paths['/things/{id}'].patch)).toEqual({ $ref: '#/components/schemas/ThingPatch' });
    expect(json(paths['/things/{id}'].get, '200')).toEqual(thing);
    expect(json(paths['/things/{id}'].delete, '200')).toEqual(thing);
    expect(json(paths['/things'].patch, '200')).toEqual({ type: 'array', items: thing });
    expect(json(paths['/things'].delete, '200')).toEqual({ type: 'array', items: thing });
    // create with multi takes and answers one record or an array, with 201.
    expect(json(paths['/things'].post, '201')).toEqual({ anyOf: [thing, { type: 'array', items: thing }] });
    expect(paths['/things/{id}'].get.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(paths['/things'].get.responses['404']).toBeUndefined();
    for (const operation of [paths['/things'].get, paths['/notes/{id}'].get, paths['/things/{id}'].put]) {
      expect(operation.responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
      expect(operation.responses.default).toEqual({ $ref: '#/components/responses/Error' });
    }
  });

  it('documents custom methods on POST with the X-Service-Method header, 200 for an answer and 204 for none', () => {
    const post = paths['/things'].post;
    expect(post.parameters).toEqual([
      {
        name: 'X-Service-Method',
        in: 'header',
        required: false,
        description: 'The custom method to run instead of `create`.',
        schema: { type: 'string', enum: ['archive', 'touch'] },
      },
    ]);
    expect(Object.keys(post.responses).sort()).toEqual(['200', '201', '204', '400', '401', 'default']);
    expect(post.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ThingArchiveResult',
    });
    expect(post.responses['204'].content).toBeUndefined();
    expect(post.requestBody.content['application/json'].schema.anyOf).toContainEqual({
      $ref: '#/components/schemas/ThingArchiveData',
    });
    expect(post.description).toContain('`X-Service-Method: archive`: Archive old things');
  });

  it('turns the query schema into query parameters in the styles the transports parse', () => {
    const parameters = paths['/things'].get.parameters as Loose[];
    const byName = Object.fromEntries(parameters.map(resolve).map((p) => [p.name, p]));
    expect(Object.keys(byName)).toEqual([
      '$limit',
      '$skip',
      '$sort',
      '$select[]',
      '_id',
      'name',
      'count',
      'include',
    ]);
    expect(byName.$limit).toMatchObject({
      in: 'query',
      style: 'form',
      schema: { type: 'integer', minimum: 0 },
    });
    expect(byName.$sort).toMatchObject({ style: 'deepObject', explode: true });
    expect(byName.$sort.schema.properties.count).toEqual({ type: 'integer', enum: [1, -1] });
    // Brackets, so that one value is an array too (`$select[]=name`; `$select=name` would be a string).
    expect(byName['$select[]']).toMatchObject({ style: 'form', explode: true });
    // Arrays of conditions have no OpenAPI parameter style: the operation describes them instead.
    expect(paths['/things'].get.description).toContain('The query also takes `$or`, `$and`');
    // A property takes a value or operators (`count[$gt]=2`); `name` also `$regex`.
    expect(byName.count.style).toBe('deepObject');
    expect(byName.name.schema.anyOf[1].properties.$regex).toEqual({ type: 'string' });
    expect(byName.include).toEqual({
      name: 'include',
      in: 'query',
      schema: { type: 'string', enum: ['shelf'] },
    });
    // Collection patch and remove select records with the query too.
    // … each query parameter is one component that find, patch and remove of many refer to.
    expect(paths['/things'].delete.parameters).toContainEqual({
      $ref: '#/components/parameters/ThingQuery.-limit',
    });
    expect(paths['/things'].get.parameters).toContainEqual({
      $ref: '#/components/parameters/ThingQuery.-limit',
    });
  });

  it('declares the strategies with a scheme and applies them where hooks call authenticate', () => {
    expect(document.components.securitySchemes).toEqual({
      jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      'api-key': { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    });
    expect(paths['/things'].get.security).toEqual([{ jwt: [] }, { 'api-key': [] }]);
    expect(paths['/things'].get.responses['401']).toEqual({
      $ref: '#/components/responses/NotAuthenticated',
    });
    expect(paths['/things/{id}'].put.security).toEqual([{ jwt: [] }]);
    expect(paths['/things/{id}'].get.security).toBeUndefined();
    // Declared by the method itself, for methods that check credentials without an authenticate hook.
    expect(paths['/sessions'].delete.security).toEqual([{ jwt: [] }]);
    expect(paths['/things/{id}'].get.responses['401']).toBeUndefined();
    // POST is create (jwt) or a custom method: archive needs jwt (an app hook), touch nothing.
    expect(paths['/things'].post.security).toEqual([{ jwt: [] }, {}]);
  });

  it('documents services without schemas with open objects and lists them as undescribed', () => {
    expect(paths['/notes'].get.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { type: 'object' },
    });
    expect(paths['/notes'].post.requestBody.content['application/json'].schema).toEqual({ type: 'object' });
    expect(document['x-plume-undescribed']).toEqual(['authentication', 'notes', 'readonly', 'sessions']);
  });

  it('has the shared JSON error body as a component', () => {
    expect((document.components.schemas as Loose).Error).toMatchObject({
      required: ['name', 'message', 'code', 'className'],
    });
    expect(Object.keys(document.components.responses)).toEqual([
      'BadRequest',
      'NotAuthenticated',
      'NotFound',
      'Error',
    ]);
  });

  it('defaults info and leaves out servers and security schemes that are not there', () => {
    const app = fixtureApp();
    const bare = openapi(app);
    expect(bare.info).toEqual({ title: 'API', version: '1.0.0' });
    expect(bare.servers).toBeUndefined();
  });
});
