import type { JsonSchema, OpenApiObject } from './declarations.js';

/** The JSON body of every error plume sends (`plume/errors` `toJSON()`; spec: "Errors"). */
export const errorSchema: JsonSchema = {
  type: 'object',
  required: ['name', 'message', 'code', 'className'],
  properties: {
    name: { type: 'string', examples: ['NotFound'] },
    message: { type: 'string' },
    code: { type: 'integer', minimum: 400, maximum: 599, examples: [404] },
    className: { type: 'string', examples: ['not-found'] },
    data: { description: 'Details the error carries, if any.' },
    errors: { description: 'What was wrong with the input (e.g. validation errors), if any.' },
  },
};

function errorResponse(description: string): OpenApiObject {
  return {
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/** The shared error responses, as `components.responses`. */
export const errorResponses: Record<string, OpenApiObject> = {
  BadRequest: errorResponse('Bad Request: the query, the body or the id is not valid; `errors` says what.'),
  NotAuthenticated: errorResponse('Not Authenticated: no valid credentials were sent.'),
  NotFound: errorResponse('Not Found: no record with this id (or none the query allows).'),
  Error: errorResponse(
    'Any other error with its status: 403 Forbidden, 405 Method Not Allowed, 409 Conflict, 411/413/415 for bodies, 500.',
  ),
};

/** `{ $ref }` to a shared error response. */
export function errorRef(name: string): OpenApiObject {
  return { $ref: `#/components/responses/${name}` };
}

/** A success response with a JSON (or `contentType`) body of `schema`, or 204 without a body for `null`. */
export function successResponse(
  description: string,
  schema: JsonSchema | null,
  contentType = 'application/json',
): OpenApiObject {
  if (schema === null) return { description: 'No Content: the method returned nothing.' };
  return { description, content: { [contentType]: { schema } } };
}
