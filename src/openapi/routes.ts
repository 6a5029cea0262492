import { stripSlashes, type Application } from '../core/index.js';
import type { OpenApiOptions, OpenApiRoutesOptions } from './declarations.js';
import { openapi } from './document.js';
import { ReferencePage } from './reference-page.js';

/** `GET /openapi.json`: the document, built at `app.setup()` (or on the first request before it). */
class OpenApiJson {
  private text: string | undefined;

  constructor(
    private readonly app: Application,
    private readonly options: OpenApiOptions,
  ) {}

  setup(): void {
    this.text = JSON.stringify(openapi(this.app, this.options));
  }

  async find(): Promise<Response> {
    this.text ??= JSON.stringify(openapi(this.app, this.options));
    return new Response(this.text, { headers: { 'content-type': 'application/json' } });
  }
}

/**
 * Serves the app's OpenAPI document and an interactive reference page on both transports, as two
 * services (a service answering a `Response` is sent as it is): `GET /openapi.json` (`options.path`)
 * and `GET /docs` (`options.docsPath`; `false` for none). Use it with `app.configure(serveOpenApi({
 * info }))`. The document is built once when the app is set up (`app.setup()`, `app.listen()`);
 * services registered after that are not in it until the next setup. Both services are left out of
 * the document. Throws `BadRequest` from `app.use` when a path is taken. See docs/openapi.md.
 */
export function serveOpenApi(options: OpenApiRoutesOptions = {}): (app: Application) => void {
  const { path = 'openapi.json', docsPath = 'docs', ...documentOptions } = options;
  return (app) => {
    const documentPath = stripSlashes(path);
    app.use(documentPath, new OpenApiJson(app, documentOptions), { methods: ['find'], openapi: false });
    if (docsPath === false) return;
    const pagePath = stripSlashes(docsPath);
    const title = documentOptions.info?.title ?? 'API reference';
    app.use(pagePath, new ReferencePage(`/${documentPath}`, `/${pagePath}`, title), {
      methods: ['find', 'get'],
      openapi: false,
    });
  };
}
