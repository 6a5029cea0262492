import { createApp, type Application, type Params } from 'plume';
import {
  AuthenticationService,
  AuthenticationStrategy,
  JWTStrategy,
  LocalStrategy,
  authenticate,
} from 'plume/authentication';
import { ObjectIdSchema, Type, querySyntax } from 'plume/schema';

/** A record of the fixture's `things`. */
export const thingSchema = Type.Object(
  { _id: ObjectIdSchema(), name: Type.String({ minLength: 1 }), count: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);

/** A service shaped like an adapter: `options.paginate` and `options.multi`, every method plus two custom ones. */
class Things {
  options = { paginate: { default: 10, max: 50 }, multi: ['create', 'patch', 'remove'] };
  async find(_params?: Params) {
    return { total: 0, limit: 10, skip: 0, data: [] };
  }
  async get(id: string | number) {
    return { _id: String(id), name: 'a', count: 1 };
  }
  async create(data: unknown) {
    return data;
  }
  async update(_id: unknown, data: unknown) {
    return data;
  }
  async patch(_id: unknown, data: unknown) {
    return data;
  }
  async remove(id: unknown) {
    return { _id: id };
  }
  async archive(_data: unknown) {
    return { archived: 0 };
  }
  async touch(_data: unknown) {
    return null;
  }
}

class ApiKeyStrategy extends AuthenticationStrategy {
  readonly securityScheme = { type: 'apiKey', in: 'header', name: 'X-API-Key' };
  override async authenticate() {
    return { authentication: { strategy: this.name } };
  }
}

/**
 * An app covering every case the document describes: full schemas with pagination, multi and custom
 * methods (one answering nothing), a placeholder path sharing the same schemas without pagination,
 * a service without schemas, one left out, one with only `get`, one removing without an id, authentication with `jwt`, `local`
 * and an API key strategy, and `authenticate` hooks on the service and on the app.
 */
export function fixtureApp(): Application {
  const app = createApp();
  const auth = new AuthenticationService(app, { secret: 'x'.repeat(32), entity: null });
  auth.register('jwt', new JWTStrategy());
  auth.register('local', new LocalStrategy());
  auth.register('api-key', new ApiKeyStrategy());
  app.use('authentication', auth);
  app.use('things', new Things(), {
    methods: ['find', 'get', 'create', 'update', 'patch', 'remove', 'archive', 'touch'],
    openapi: {
      name: 'Thing',
      description: 'Things on shelves',
      result: thingSchema,
      data: Type.Omit(thingSchema, ['_id']),
      patch: Type.Partial(Type.Omit(thingSchema, ['_id'])),
      query: querySyntax(thingSchema, { name: { $regex: Type.String() } }),
      parameters: [{ name: 'include', in: 'query', schema: { type: 'string', enum: ['shelf'] } }],
      methods: {
        archive: {
          summary: 'Archive old things',
          data: Type.Object({ before: Type.Integer() }),
          result: Type.Object({ archived: Type.Integer() }),
        },
        touch: { summary: 'Touch every thing', result: null },
      },
    },
  });
  app.service('things').hooks({
    before: {
      find: [authenticate('jwt', 'api-key')],
      create: [authenticate('jwt')],
      update: [authenticate('jwt')],
      patch: [authenticate('jwt')],
      remove: [authenticate('jwt')],
    },
  });
  app.hooks({ before: { archive: [authenticate('jwt')] } });
  app.use(
    'shelves/:shelfId/things',
    { find: async () => [], get: async (id: unknown) => ({ _id: id }) },
    { openapi: { name: 'Thing', result: thingSchema, tag: 'things' } },
  );
  app.use('notes', { find: async () => [], get: async () => ({}), create: async (data: unknown) => data });
  app.use('hidden', { find: async () => [] }, { openapi: false });
  app.use('readonly', { get: async (id: unknown) => ({ id }) });
  // Not an adapter: `remove` also answers on the collection path, and checks credentials itself.
  app.use(
    'sessions',
    { remove: async () => ({ ended: true }) },
    { openapi: { methods: { remove: { withoutId: true, authentication: ['jwt'] } } } },
  );
  return app;
}
