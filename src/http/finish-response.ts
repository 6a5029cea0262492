/** The last touches `createHandler` gives every response: no body for `HEAD`, the CORS headers. */
import { applyCors, type CorsPolicy } from './cors.js';
import { getJsonText } from './json-response.js';

/**
 * `response` as sent for `request`: without its body for `HEAD` (same status and headers, with the
 * `Content-Length` of the JSON it would have had), with the CORS headers of `cors` for `origin`.
 */
export function finishResponse(
  request: Request,
  origin: string | null,
  cors: CorsPolicy,
  response: Response,
): Response {
  return applyCors(request.method === 'HEAD' ? withoutBody(response) : response, origin, cors);
}

/** A `HEAD` answer: the `GET` response's status and headers, no body (its stream is cancelled). */
function withoutBody(response: Response): Response {
  const text = getJsonText(response);
  if (text === undefined) {
    const body = response.body;
    if (body === null) return response;
    body.cancel().catch(() => undefined);
  }
  const headless = new Response(null, response);
  if (text !== undefined && !headless.headers.has('content-length')) {
    headless.headers.set('content-length', String(new TextEncoder().encode(text).byteLength));
  }
  return headless;
}
