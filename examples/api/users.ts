import type { Db } from 'mongodb';
import type { Application, HookContext } from 'plume';
import { authenticate, hashPassword, protect } from 'plume/authentication';
import { DocDbService } from 'plume/docdb';
import { Forbidden } from 'plume/errors';
import type { ServiceDocs } from 'plume/openapi';
import { ObjectIdSchema, Type, getValidator, querySyntax, validateData, validateQuery } from 'plume/schema';
import type { Validators } from './validators.js';

/** A stored user. `password` is a bcrypt hash and never leaves the server. */
export const userSchema = Type.Object(
  {
    _id: ObjectIdSchema(),
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Type.String({ minLength: 8, maxLength: 72 }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);

/** What a client may send on signup. */
export const userDataSchema = Type.Omit(userSchema, ['_id']);
/** What a client may send on patch. */
export const userPatchSchema = Type.Partial(userDataSchema, { additionalProperties: false });
/** What a client may query: never the password. */
export const userQuerySchema = querySyntax(Type.Pick(userSchema, ['_id', 'email', 'name']));

/** A user as the API answers it: without the password hash. */
export const userResultSchema = Type.Omit(userSchema, ['password']);

/** Emails are compared as given, so they are stored in lower case. */
function lowerCaseEmail(context: HookContext): void {
  const data = context.data as { email?: unknown } | undefined;
  if (typeof data?.email === 'string') data.email = data.email.toLowerCase();
}

/** External clients may only change or delete their own account. */
function onlyOwnAccount(context: HookContext): void {
  if (context.params.provider === undefined) return;
  const user = context.params.user as { _id?: unknown } | undefined;
  if (String(user?._id) !== String(context.id)) {
    throw new Forbidden('You can only change your own account');
  }
}

/**
 * `users`: signup (`create`) is open; everything else needs a token (`jwt`) or an API key (reads
 * only). Emails are unique (a second signup with the same email is 409 Conflict naming `email`).
 */
export function users(db: Db, validators: Validators) {
  return (app: Application): void => {
    const collection = db.collection('users');
    app.use(
      'users',
      new DocDbService({
        // Indexes are created before the first call, inside the Model promise.
        Model: collection.createIndex({ email: 1 }, { unique: true }).then(() => collection),
        paginate: { default: 10, max: 50 },
      }),
      {
        methods: ['find', 'get', 'create', 'patch', 'remove'],
        // The schemas plume/openapi describes the service with (GET /openapi.json, /docs).
        openapi: {
          name: 'User',
          description: 'Accounts: signup is open, the rest needs a token or an API key.',
          result: userResultSchema,
          data: userDataSchema,
          patch: userPatchSchema,
          query: userQuerySchema,
        } satisfies ServiceDocs,
      },
    );
    app.service('users').hooks({
      after: { all: [protect('password')] },
      before: {
        find: [
          authenticate('jwt', 'api-key'),
          validateQuery(getValidator(userQuerySchema, validators.query)),
        ],
        get: [authenticate('jwt', 'api-key'), validateQuery(getValidator(userQuerySchema, validators.query))],
        create: [
          validateData(getValidator(userDataSchema, validators.data)),
          lowerCaseEmail,
          hashPassword('password'),
        ],
        patch: [
          authenticate('jwt'),
          onlyOwnAccount,
          validateData(getValidator(userPatchSchema, validators.data)),
          lowerCaseEmail,
          hashPassword('password'),
        ],
        remove: [authenticate('jwt'), onlyOwnAccount],
      },
    });
  };
}
