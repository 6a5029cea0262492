// The FeathersJS 5 generator's src/declarations.ts, after the renames.
import type { HookContext as FrameworkHookContext } from 'plume'; // was: '@feathersjs/feathers'
import type { FrameworkApplication } from 'plume/express'; // was: Application from '@feathersjs/express'
import type { MessageService } from './messages.js';
import type { UserService } from './users.js';

export interface Configuration {
  paginate: { default: number; max: number };
}

export interface ServiceTypes {
  users: UserService;
  messages: MessageService;
}

export type Application = FrameworkApplication<ServiceTypes>; // was: FeathersApplication<ServiceTypes, Configuration> (no settings type)

// plume's HookContext has no app type parameter: context.app is the untyped Application.
export type HookContext<S = unknown> = FrameworkHookContext<S>; // was: FeathersHookContext<Application, S>
