import { getServiceMeta, type Application } from '../core/index.js';
import type { OpenApiDocument, OpenApiOptions, ServiceDocs } from './declarations.js';
import { describeService } from './operations.js';
import { errorResponses, errorSchema } from './responses.js';
import { Components } from './schemas.js';
import { securitySchemes } from './security.js';

/** The JSON Schema dialect of every schema in the document (OpenAPI 3.1's default, stated). */
const dialect = 'https://json-schema.org/draft/2020-12/schema';

/** The `openapi` option a service was registered with: its docs, `false` to leave it out, or none. */
export function serviceDocs(service: unknown): ServiceDocs | false {
  const option = getServiceMeta(service)?.options.openapi;
  if (option === false) return false;
  return typeof option === 'object' && option !== null ? option : {};
}

/**
 * Builds the OpenAPI 3.1 document (JSON Schema 2020-12 dialect) of the services registered on `app`
 * (docs/openapi.md), in registration order. Each service is described by its `openapi` option
 * (`ServiceDocs`: result, data, patch and query schemas, custom methods); services registered with
 * `openapi: false` are left out. Placeholders become path parameters (`users/:userId/messages` →
 * `/users/{userId}/messages`); the operations are the methods the service exposes, mapped as the
 * transports map them (spec: "REST mapping"), with their real status codes (201 create, 204 for a
 * method documented with `result: null`) and the shared error body (`components.schemas.Error`).
 * Operations whose hooks include `authenticate` get `security` from the authentication service's
 * strategies. The result is plain JSON (no shared objects with the app's schemas). Throws nothing for
 * a valid app; call it once per setup (`serveOpenApi` does), not per request.
 */
export function openapi(app: Application, options: OpenApiOptions = {}): OpenApiDocument {
  const components = new Components();
  components.add('Error', errorSchema);
  const schemes = securitySchemes(app, options);
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    jsonSchemaDialect: dialect,
    info: options.info ?? { title: 'API', version: '1.0.0' },
    ...(options.servers !== undefined && { servers: options.servers }),
    tags: [],
    paths: {},
    components: { schemas: components.schemas, responses: errorResponses },
  };
  const undescribed: string[] = [];
  for (const [path, service] of Object.entries(app.services)) {
    const docs = serviceDocs(service);
    if (docs === false) continue;
    const items = describeService({ app, path, service, docs, components, schemes });
    if (Object.keys(items).length === 0) continue;
    Object.assign(document.paths, items);
    const tag = docs.tag ?? path;
    if (!document.tags.some((known) => known.name === tag)) {
      document.tags.push({
        name: tag,
        ...(docs.description !== undefined && { description: docs.description }),
      });
    }
    if (docs.result === undefined) undescribed.push(path);
  }
  if (Object.keys(components.parameters).length > 0) document.components.parameters = components.parameters;
  if (Object.keys(schemes).length > 0) document.components.securitySchemes = schemes;
  if (undescribed.length > 0) document['x-plume-undescribed'] = undescribed;
  return JSON.parse(JSON.stringify(document)) as OpenApiDocument;
}
