import type { Db } from 'mongodb';
import type { Application, HookContext, Params } from 'plume';
import { authenticate } from 'plume/authentication';
import { DocDbService } from 'plume/docdb';
import { BadRequest } from 'plume/errors';
import type { OpenApiObject, ServiceDocs } from 'plume/openapi';
import { ObjectIdSchema, Type, getValidator, querySyntax, validateData, validateQuery } from 'plume/schema';
import type { Validators } from './validators.js';

/** A stored message. `createdAt` is a UTC timestamp in milliseconds, set by the server. */
export const messageSchema = Type.Object(
  {
    _id: ObjectIdSchema(),
    text: Type.String({ minLength: 1, maxLength: 2000 }),
    userId: ObjectIdSchema(),
    createdAt: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** What a client sends: only the text; the author and the time come from the server. */
export const messageDataSchema = Type.Pick(messageSchema, ['text']);
/** Queries over every field; `text` also takes `$regex` (at most 100 characters) and `$options`. */
export const messageQuerySchema = querySyntax(messageSchema, {
  text: {
    $regex: Type.String({ maxLength: 100 }),
    $options: Type.String({ pattern: '^[imsx]{0,4}$' }),
  },
});

/** A message as the API answers it: with `include=user`, also its author (without password). */
export const messageResultSchema = Type.Object(
  {
    ...messageSchema.properties,
    user: Type.Optional(
      Type.Object({ _id: ObjectIdSchema(), email: Type.String() }, { description: 'With include=user' }),
    ),
  },
  { additionalProperties: false },
);

/** The query parameters `queryOptions` takes out of the query, for the API description. */
export const messageOptionParameters: OpenApiObject[] = [
  {
    name: 'include',
    in: 'query',
    description: "'user' adds each message's author",
    schema: { type: 'string', enum: ['user'] },
  },
  {
    name: 'ignoreCase',
    in: 'query',
    description: 'Compare and sort `text` ignoring case',
    schema: { type: 'string', enum: ['true', 'false'] },
  },
];

/** What `stats` answers. */
const statsSchema = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  authors: Type.Array(Type.Object({ userId: ObjectIdSchema(), count: Type.Integer({ minimum: 1 }) })),
});

/** The `$lookup` that adds each message's author, without the password hash. */
const withUser = [
  { $framework: {} },
  { $lookup: { from: 'users', localField: 'userId', foreignField: '_id', as: 'user' } },
  { $unwind: { path: '$user', preserveNullAndEmptyArrays: true } },
  { $unset: 'user.password' },
];

/**
 * Query parameters that are not query conditions: `include=user` adds the author through a
 * `$lookup` pipeline; `ignoreCase=true` compares and sorts `text` with a case-insensitive collation.
 */
function queryOptions(context: HookContext): void {
  const { include, ignoreCase, ...query } = (context.params.query ?? {}) as Record<string, unknown>;
  if (include !== undefined && include !== 'user') {
    throw new BadRequest("'include' can only be 'user'");
  }
  if (ignoreCase !== undefined && ignoreCase !== 'true' && ignoreCase !== 'false') {
    throw new BadRequest("'ignoreCase' must be 'true' or 'false'");
  }
  const params: Params = { ...context.params, query };
  if (include === 'user') params.pipeline = withUser;
  if (ignoreCase === 'true') params.collation = { locale: 'en', strength: 2 };
  context.params = params;
}

/** The author and the time of a new message come from the server, never from the client. */
function setAuthor(context: HookContext): void {
  const user = context.params.user as { _id: unknown } | undefined;
  if (user === undefined) throw new BadRequest('Only users can write messages');
  const stamp = (data: unknown) => ({ ...(data as object), userId: user._id, createdAt: Date.now() });
  // An array stays an array, so the service refuses it (405) unless `multi` allows it.
  context.data = Array.isArray(context.data) ? context.data.map(stamp) : stamp(context.data);
}

/**
 * `update` replaces the text; the author and `createdAt` of the stored message stay. Without an id
 * (`PUT /messages`) or with an array of data there is no one message to replace: the service
 * answers that call itself (400 "You can not replace multiple instances. Did you mean 'patch'?").
 * Going on here would answer about a `get` the client never made, or spread the array into an
 * object (`{ "0": {...} }`) that the service would store in place of the message.
 */
async function keepAuthorAndTime(context: HookContext): Promise<void> {
  if (context.id === null || context.id === undefined || Array.isArray(context.data)) return;
  const user = context.params.user as { _id: unknown } | undefined;
  const query = context.params.provider === undefined || user === undefined ? {} : { userId: user._id };
  const stored = (await context.app.service(context.path).get(context.id, { query })) as {
    userId: unknown;
    createdAt: number;
  };
  context.data = { ...(context.data as object), userId: stored.userId, createdAt: stored.createdAt };
}

/** External clients change and delete only their own messages: others' are 404 to them. */
function ownMessagesOnly(context: HookContext): void {
  if (context.params.provider === undefined) return;
  const user = context.params.user as { _id: unknown };
  context.params = { ...context.params, query: { ...context.params.query, userId: user._id } };
}

/** `messages` with a custom method: `stats` counts messages per author. */
export class MessageService extends DocDbService {
  /** `POST /messages` with `X-Service-Method: stats`: `{ total, authors: [{ userId, count }] }`, busiest first. */
  async stats(_data: unknown, _params?: Params) {
    const collection = await this.getModel();
    const authors = await collection
      .aggregate<{ userId: unknown; count: number }>([
        { $group: { _id: '$userId', count: { $sum: 1 } } },
        { $sort: { count: -1, _id: 1 } },
        { $limit: 50 },
        { $project: { _id: 0, userId: '$_id', count: 1 } },
      ])
      .toArray();
    return { total: await collection.countDocuments(), authors };
  }
}

/**
 * `messages`: anyone reads, users write. Pages of 10 (at most 50), `$regex` search on `text`,
 * `include=user`, `ignoreCase=true`, and `stats`.
 */
export function messages(db: Db, validators: Validators) {
  return (app: Application): void => {
    const collection = db.collection('messages');
    app.use(
      'messages',
      new MessageService({
        Model: collection.createIndex({ createdAt: -1 }).then(() => collection),
        paginate: { default: 10, max: 50 },
        // Queries are validated by messageQuerySchema; the adapter also allows these two operators.
        operators: ['$regex', '$options'],
      }),
      {
        methods: ['find', 'get', 'create', 'update', 'patch', 'remove', 'stats'],
        // The schemas plume/openapi describes the service with (GET /openapi.json, /docs).
        openapi: {
          name: 'Message',
          description: 'Anyone reads, users write and change their own messages.',
          result: messageResultSchema,
          data: messageDataSchema,
          patch: Type.Partial(messageDataSchema),
          query: messageQuerySchema,
          parameters: messageOptionParameters,
          methods: {
            stats: { summary: 'Count messages per author', data: Type.Object({}), result: statsSchema },
          },
        } satisfies ServiceDocs,
      },
    );
    const checkQuery = validateQuery(getValidator(messageQuerySchema, validators.query));
    app.service('messages').hooks({
      before: {
        find: [queryOptions, checkQuery],
        get: [queryOptions, checkQuery],
        create: [
          authenticate('jwt'),
          validateData(getValidator(messageDataSchema, validators.data)),
          setAuthor,
        ],
        update: [
          authenticate('jwt'),
          validateData(getValidator(messageDataSchema, validators.data)),
          ownMessagesOnly,
          checkQuery,
          keepAuthorAndTime,
        ],
        patch: [
          authenticate('jwt'),
          validateData(getValidator(Type.Partial(messageDataSchema), validators.data)),
          ownMessagesOnly,
          checkQuery,
        ],
        remove: [authenticate('jwt'), ownMessagesOnly, checkQuery],
      },
    });
  };
}
