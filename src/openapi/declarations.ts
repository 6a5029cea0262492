/** A JSON Schema (2020-12) as plain JSON, e.g. a TypeBox schema. */
export type JsonSchema = Record<string, unknown>;

/** An OpenAPI 3.1 object this module does not model further (operation, parameter, response, …). */
export type OpenApiObject = Record<string, unknown>;

/**
 * What one method of a service documents, under `ServiceDocs.methods[name]`. Every field is optional;
 * for custom methods `data` and `result` are their body and answer.
 */
export interface MethodDocs {
  /** One-line summary shown in the reference page. Default: generated from the method and path. */
  summary?: string;
  /** Longer text (Markdown). */
  description?: string;
  /** Request body of a custom method. Default: an open object. */
  data?: JsonSchema;
  /**
   * What the method answers. `null` documents a method that returns nothing, which the transports
   * answer with 204 No Content. Default: the service's `result` (custom methods: an open object).
   */
  result?: JsonSchema | null;
  /** Media type of a method that does not answer JSON, e.g. `text/event-stream` for a stream. */
  contentType?: string;
  /**
   * Strategies the method authenticates with when it checks credentials itself rather than through
   * an `authenticate` hook (which the document finds on its own), e.g. `['jwt']`.
   */
  authentication?: string[];
  /**
   * `patch` or `remove` of a service that is not an adapter also answer on the collection path (id
   * `null`), with the same answer as with an id (e.g. logout: `DELETE /authentication`). Adapters
   * document this through `multi` instead, with an array as the answer.
   */
  withoutId?: boolean;
}

/**
 * The per-service option `openapi` of `app.use(path, service, { openapi })` (see docs/openapi.md):
 * the schemas `openapi()` describes the service with. `openapi: false` leaves the service out of
 * the document. A service with no `result` schema is documented with open objects and listed under
 * the document's `x-plume-undescribed`.
 */
export interface ServiceDocs {
  /** Base name of the service's schema components, e.g. `Message` gives `Message`, `MessageData`, `MessagePatch`, `MessagePage`. Default: from the path. */
  name?: string;
  /** Tag grouping the service's operations. Default: the service path. */
  tag?: string;
  /** Description of the tag (Markdown). */
  description?: string;
  /** One record as the service answers it (`get`, `create`, `update`, `patch`, `remove`, items of `find`). */
  result?: JsonSchema;
  /** Body of `create` and `update`. Default: an open object. */
  data?: JsonSchema;
  /** Body of `patch`. Default: `data`. */
  patch?: JsonSchema;
  /** The query, typically `querySyntax(...)` from `plume/schema`: each property becomes a query parameter. */
  query?: JsonSchema;
  /** More query parameters (OpenAPI parameter objects) the service reads besides `query`, e.g. options its hooks take out. */
  parameters?: OpenApiObject[];
  /** Whether `find` answers a page `{ total, limit, skip, data }`. Default: the service's `options.paginate` (adapters). */
  paginate?: boolean;
  /** Methods that also work without an id (`patch`, `remove` on the collection path; `create` with an array). Default: the service's `options.multi` (adapters). */
  multi?: boolean | string[];
  /** Per-method summaries and overrides; custom methods' `data` and `result`. */
  methods?: Record<string, MethodDocs>;
}

/** Options of `openapi(app, options)`. */
export interface OpenApiOptions {
  /** The document's `info`. Default `{ title: 'API', version: '1.0.0' }`. */
  info?: { title: string; version: string; description?: string; [field: string]: unknown };
  /** The document's `servers`. Default: none, so clients use the origin the document came from. */
  servers?: { url: string; description?: string; [field: string]: unknown }[];
  /**
   * Security schemes by strategy name, overriding what the strategies declare themselves (a strategy's
   * `securityScheme` property; `JWTStrategy` declares HTTP bearer).
   */
  securitySchemes?: Record<string, OpenApiObject>;
}

/** Options of `serveOpenApi(options)`: the document's options and where the routes are. */
export interface OpenApiRoutesOptions extends OpenApiOptions {
  /** Service path of the JSON document. Default `openapi.json`. */
  path?: string;
  /** Service path of the reference page, or `false` for no page. Default `docs`. */
  docsPath?: string | false;
}

/** An OpenAPI 3.1 document as `openapi()` builds it. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: NonNullable<OpenApiOptions['info']>;
  servers?: NonNullable<OpenApiOptions['servers']>;
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiObject>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiObject>;
    parameters?: Record<string, OpenApiObject>;
    securitySchemes?: Record<string, OpenApiObject>;
  };
  /** Service paths that declare no `result` schema (documented with open objects). */
  'x-plume-undescribed'?: string[];
}
