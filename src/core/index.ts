/**
 * `plume`: the application, services, routing with placeholders, params, hooks, events, setup and
 * teardown (spec: "What the service does"). The hook execution order is documented in `docs/hooks.md`.
 * @packageDocumentation
 */
export { Application, createApp, type RegisteredService, type ServiceLookup } from './application.js';
export { compose, type Middleware } from './compose.js';
export { AUTHENTICATE_MARK } from './hooks.js';
export {
  defaultEventMap,
  defaultServiceMethods,
  type AroundHook,
  type AroundHookMap,
  type HeadersObject,
  type HookContext,
  type HookMap,
  type HookMethodMap,
  type HttpOptions,
  type LifecycleContext,
  type LifecycleHook,
  type LifecycleHookMap,
  type Id,
  type NullableId,
  type Paginated,
  type Params,
  type Query,
  type RegularHook,
  type Service,
  type ServiceAddons,
  type ServiceMethods,
  type ServiceOptions,
  type StandardMethod,
  type UntypedService,
} from './declarations.js';
export {
  createBodyTooLarge,
  getAllowedMethods,
  getResponse,
  getServiceMethod,
  isCommonMethod,
  METHOD_HEADER,
  restArguments,
  type RestResponse,
} from './rest.js';
export { Router, stripSlashes, type RouteMatch } from './router.js';
export {
  createQueryStringParser,
  isDecimalNumber,
  isUnsafeKey,
  roundedIntegerOf,
  type QueryStringLimits,
} from './query-string.js';
export { argumentsOf } from './method-names.js';
export { getServiceMeta, type ServiceMeta } from './service-meta.js';
export { invokeService, invokeServiceCallback } from './service-call.js';
export { createEventStream, isAsyncIterable, ServerSentEvent } from './event-stream.js';
export { createLogger, errorLogger, getLogger, isLogger, type Logger, type LoggerOptions } from './logger.js';
export { describeListenError } from './listen-errors.js';
export { logAccess, loggablePath, requestIdOf, type AccessLogEntry } from './access-log.js';
