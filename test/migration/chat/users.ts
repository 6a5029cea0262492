// The FeathersJS 5 chat guide's users service (users.schema.ts, users.class.ts, users.ts in one file),
// after the renames of docs/migrating-from-feathers.md. Lines that changed say what they were.
import { authenticate } from 'plume/authentication'; // was: '@feathersjs/authentication'
import { passwordHash } from 'plume/authentication'; // was: '@feathersjs/authentication-local'
import { DocDbService, type DocDbParams, type DocDbServiceOptions } from 'plume/docdb'; // was: MongoDBService, MongoDBAdapterParams, MongoDBAdapterOptions from '@feathersjs/mongodb'
import * as schemaHooks from 'plume/schema'; // was: { hooks as schemaHooks } from '@feathersjs/schema'
import { getValidator, ObjectIdSchema, querySyntax, resolve, Type, type Static } from 'plume/schema'; // was: '@feathersjs/typebox', '@feathersjs/schema'
import type { Db } from 'mongodb';
import type { Application, HookContext } from './declarations.js';
import { dataValidator, queryValidator } from './validators.js';

export const userSchema = Type.Object(
  {
    _id: ObjectIdSchema(),
    email: Type.String({ format: 'email' }),
    password: Type.Optional(Type.String()),
    avatar: Type.Optional(Type.String()),
  },
  { $id: 'User', additionalProperties: false },
);
export type User = Static<typeof userSchema>;
export const userValidator = getValidator(userSchema, dataValidator);
export const userResolver = resolve<User, HookContext>({});

export const userExternalResolver = resolve<User, HookContext>({
  // The password hash should never be visible externally
  password: async () => undefined,
});

export const userDataSchema = Type.Pick(userSchema, ['email', 'password', 'avatar'], { $id: 'UserData' });
export type UserData = Static<typeof userDataSchema>;
export const userDataValidator = getValidator(userDataSchema, dataValidator);
export const userDataResolver = resolve<User, HookContext>({
  password: passwordHash({ strategy: 'local' }),
  avatar: async (value, user) => value ?? `https://s.gravatar.com/avatar/${user.email.length}?s=60`,
});

export const userPatchSchema = Type.Partial(userSchema, { $id: 'UserPatch' });
export type UserPatch = Static<typeof userPatchSchema>;
export const userPatchValidator = getValidator(userPatchSchema, dataValidator);
export const userPatchResolver = resolve<User, HookContext>({
  password: passwordHash({ strategy: 'local' }),
});

export const userQueryProperties = Type.Pick(userSchema, ['_id', 'email']);
// was: Type.Intersect (TypeBox 0.25, which FeathersJS 5 uses, merged objects; 0.26+ Composite does)
export const userQuerySchema = Type.Composite(
  [querySyntax(userQueryProperties), Type.Object({}, { additionalProperties: false })],
  { additionalProperties: false },
);
export type UserQuery = Static<typeof userQuerySchema>;
export const userQueryValidator = getValidator(userQuerySchema, queryValidator);
export const userQueryResolver = resolve<UserQuery, HookContext>({
  // If there is a user (e.g. with authentication), they are only allowed to see their own data
  _id: async (value, _user, context) => {
    if (context.params.user) return (context.params.user as User)._id;
    return value;
  },
});

export type UserParams = DocDbParams<UserQuery>; // was: MongoDBAdapterParams<UserQuery>

export class UserService extends DocDbService<User, UserData, UserParams, UserPatch> {} // was: MongoDBService

export const getOptions = (app: Application): DocDbServiceOptions => ({
  paginate: app.get('paginate') as DocDbServiceOptions['paginate'],
  Model: (app.get('mongodbClient') as Promise<Db>).then((db) => db.collection('users')),
});

export const userPath = 'users';
export const userMethods = ['find', 'get', 'create', 'patch', 'remove'] as const;

export const user = (app: Application) => {
  app.use(userPath, new UserService(getOptions(app)), {
    methods: [...userMethods],
    events: [],
  });
  app.service(userPath).hooks({
    around: {
      all: [schemaHooks.resolveExternal(userExternalResolver), schemaHooks.resolveResult(userResolver)],
      find: [authenticate('jwt')],
      get: [authenticate('jwt')],
      create: [],
      update: [authenticate('jwt')],
      patch: [authenticate('jwt')],
      remove: [authenticate('jwt')],
    },
    before: {
      all: [schemaHooks.validateQuery(userQueryValidator), schemaHooks.resolveQuery(userQueryResolver)],
      find: [],
      get: [],
      create: [schemaHooks.validateData(userDataValidator), schemaHooks.resolveData(userDataResolver)],
      patch: [schemaHooks.validateData(userPatchValidator), schemaHooks.resolveData(userPatchResolver)],
      remove: [],
    },
    after: { all: [] },
    error: { all: [] },
  });
};
