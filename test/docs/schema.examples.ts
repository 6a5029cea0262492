/**
 * The examples of docs/schema.md, type-checked and run by test/docs/examples.test.ts.
 * Keep each function identical to the snippet in the page it comes from.
 */
import { Ajv } from 'ajv';
import type { Db } from 'mongodb';
import type { Application, HookContext } from 'plume';
import { DocDbService } from 'plume/docdb';
import {
  createDataValidator,
  createQueryValidator,
  getValidator,
  keywordObjectId,
  ObjectIdSchema,
  querySyntax,
  resolve,
  resolveData,
  resolveExternal,
  resolveObjectId,
  resolveQueryObjectId,
  resolveResult,
  Type,
  validateData,
  validateQuery,
  virtual,
  type Static,
} from 'plume/schema';

/** "Schemas and validators". */
export const queryAjv = createQueryValidator(); // coerces query strings: '20' → 20
export const dataAjv = createDataValidator(); // data keeps the types the client sent

export const messageSchema = Type.Object(
  {
    _id: ObjectIdSchema(),
    userId: ObjectIdSchema(),
    text: Type.String({ minLength: 1, maxLength: 1000 }),
    createdAt: Type.Integer({ minimum: 0 }), // UTC milliseconds
    secret: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type Message = Static<typeof messageSchema>;

export const messageDataSchema = Type.Pick(messageSchema, ['userId', 'text']);
export const messagePatchSchema = Type.Partial(Type.Pick(messageSchema, ['text']));

export const messageQuerySchema = querySyntax(
  Type.Pick(messageSchema, ['_id', 'userId', 'text', 'createdAt']),
  { text: { $regex: Type.String(), $options: Type.String() } },
);

/** "Resolvers". */
export const messageDataResolver = resolve({
  createdAt: async () => Date.now(),
});

export const messageResultResolver = resolve({
  user: virtual(async (message, context: HookContext) =>
    context.app.service('users').get(String(message.userId)),
  ),
});

export const messageExternalResolver = resolve({
  secret: async () => undefined, // never sent to clients
});

/** "Hooks": putting it together on a service. */
export function registerMessages(app: Application, db: Db) {
  app.use('messages', new DocDbService({ Model: db.collection('messages'), paginate: { default: 10 } }));
  app.service('messages').hooks({
    around: {
      all: [resolveExternal(messageExternalResolver)],
    },
    before: {
      find: [validateQuery(getValidator(messageQuerySchema, queryAjv))],
      create: [validateData(getValidator(messageDataSchema, dataAjv)), resolveData(messageDataResolver)],
      patch: [validateData(getValidator(messagePatchSchema, dataAjv))],
    },
    after: {
      get: [resolveResult(messageResultResolver)],
    },
  });
}

/** "Object ids": registering the keyword on an AJV instance of your own. */
export function createOwnValidator() {
  const own = new Ajv({ coerceTypes: true });
  own.addKeyword(keywordObjectId);
  return getValidator(Type.Object({ userId: ObjectIdSchema() }), own);
}

/** "Object ids": resolvers, when the keyword is not used. */
export const idResolver = resolve({ userId: resolveObjectId });

export async function convertQueryIds(context: HookContext) {
  const query = context.params.query ?? {};
  if (query.userId !== undefined) {
    context.params.query = { ...query, userId: resolveQueryObjectId(query.userId) };
  }
}
