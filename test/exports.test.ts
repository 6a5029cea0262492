import { describe, expect, it } from 'vitest';

// The public surface of the subpaths without their own exports test (adapter, docdb, express, schema
// and authentication have one): a name appearing or disappearing is an API change to review.
describe('public exports', () => {
  it('plume', async () => {
    expect(Object.keys(await import('plume')).sort()).toMatchInlineSnapshot(`
      [
        "AUTHENTICATE_MARK",
        "Application",
        "METHOD_HEADER",
        "Router",
        "ServerSentEvent",
        "argumentsOf",
        "compose",
        "createApp",
        "createBodyTooLarge",
        "createEventStream",
        "createLogger",
        "createQueryStringParser",
        "defaultEventMap",
        "defaultServiceMethods",
        "describeListenError",
        "errorLogger",
        "getAllowedMethods",
        "getLogger",
        "getResponse",
        "getServiceMeta",
        "getServiceMethod",
        "invokeService",
        "invokeServiceCallback",
        "isAsyncIterable",
        "isCommonMethod",
        "isDecimalNumber",
        "isLogger",
        "isUnsafeKey",
        "logAccess",
        "loggablePath",
        "requestIdOf",
        "restArguments",
        "roundedIntegerOf",
        "stripSlashes",
      ]
    `);
  });
  it('plume/errors', async () => {
    expect(Object.keys(await import('plume/errors')).sort()).toMatchInlineSnapshot(`
      [
        "BadGateway",
        "BadRequest",
        "Conflict",
        "Forbidden",
        "GeneralError",
        "Gone",
        "LengthRequired",
        "MethodNotAllowed",
        "NotAcceptable",
        "NotAuthenticated",
        "NotFound",
        "NotImplemented",
        "PayloadTooLarge",
        "PaymentError",
        "PlumeError",
        "Timeout",
        "TooManyRequests",
        "Unavailable",
        "Unprocessable",
        "UnsupportedMediaType",
        "errorsByCode",
        "fromJSON",
        "isExposedClientError",
        "isPlumeError",
        "statusOf",
        "toPlumeError",
      ]
    `);
  });
  it('plume/http', async () => {
    expect(Object.keys(await import('plume/http')).sort()).toMatchInlineSnapshot(`
      [
        "CORS_ALLOW_HEADERS",
        "CORS_ALLOW_METHODS",
        "DEFAULT_BODY_LIMIT",
        "accessLog",
        "applyCors",
        "bodyParser",
        "createCorsPolicy",
        "createErrorResponse",
        "createEventStream",
        "createHandler",
        "createPreflightResponse",
        "decodeBodyText",
        "duplicateHostError",
        "errorHandler",
        "findScalarBody",
        "findUnstorableNumber",
        "findUnstorableText",
        "getBodyCharset",
        "isAsyncIterable",
        "logServerError",
        "missingHostError",
        "parseQueryString",
        "parseRequestBody",
        "queryParser",
        "serverErrorLogger",
        "toRuntimeHandler",
      ]
    `);
  });
  it('plume/embedded', async () => {
    expect(Object.keys(await import('plume/embedded')).sort()).toMatchInlineSnapshot(`
      [
        "DataFileError",
        "repairDataDirectory",
        "startEmbeddedServer",
      ]
    `);
  });
});
