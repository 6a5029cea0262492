/**
 * `plume/client`: a typed fetch client for plume services, with authentication and Server-Sent
 * Events, for browsers, Deno, Bun and Node ≥ 20 (no Node-only imports). See `docs/client.md`.
 * @packageDocumentation
 */
export { Client, createClient } from './client.js';
export type {
  AuthenticationClientOptions,
  AuthenticationRequest,
  AuthenticationResult,
  ClientMiddleware,
  ClientOptions,
  ClientParams,
  ClientRequest,
  EventStream,
  EventStreamParams,
  Id,
  Query,
  TokenStorage,
} from './declarations.js';
export { encodeQuery } from './query-string.js';
export type { CustomMethod, Json, Paginate, Paginated, ServiceClient, ServicesOf } from './service-types.js';
export {
  defaultStorage,
  memoryStorage,
  withAuthentication,
  type AuthenticatedClient,
  type AuthenticationMethods,
} from './authentication.js';
