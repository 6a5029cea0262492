/**
 * `plume/openapi`: the OpenAPI 3.1 document of an app's services, built from the schemas each service
 * declares in its `openapi` option, and the `/openapi.json` and `/docs` routes serving it with an
 * interactive reference page (Swagger UI, served locally). See docs/openapi.md.
 * @packageDocumentation
 */
export { openapi } from './document.js';
export { serveOpenApi } from './routes.js';
export { AUTHENTICATE_MARK } from '../core/index.js';
export {
  type JsonSchema,
  type MethodDocs,
  type OpenApiDocument,
  type OpenApiObject,
  type OpenApiOptions,
  type OpenApiRoutesOptions,
  type ServiceDocs,
} from './declarations.js';
