import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Id } from '../core/index.js';
import { NotFound } from '../errors/index.js';

/** The files of `swagger-ui-dist` the page loads, with their media types. */
const assets: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

/** Where `swagger-ui-dist` is installed (it is a dependency of plume). */
function assetFolder(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The interactive API reference (Swagger UI from the `swagger-ui-dist` package, served from
 * `node_modules`, so the page works offline): `find` answers the HTML page, `get(file)` its script
 * and style sheet. The page loads the document from `documentUrl`; its files live under `pageUrl`.
 */
export class ReferencePage {
  private readonly cache = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

  constructor(
    private readonly documentUrl: string,
    private readonly pageUrl: string,
    private readonly title: string,
  ) {}

  /** `GET /docs`: the HTML page. */
  async find(): Promise<Response> {
    const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(this.title)}</title>
<link rel="stylesheet" href="${escapeHtml(`${this.pageUrl}/swagger-ui.css`)}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${escapeHtml(`${this.pageUrl}/swagger-ui-bundle.js`)}"></script>
<script src="${escapeHtml(`${this.pageUrl}/init.js`)}"></script>
</body>
</html>
`;
    return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  }

  /** `GET /docs/<file>`: `init.js` (starts Swagger UI on the document) or a file of `swagger-ui-dist`. Throws `NotFound` for any other name. */
  async get(id: Id): Promise<Response> {
    const name = String(id);
    if (name === 'init.js') {
      const script = `window.ui = SwaggerUIBundle(${JSON.stringify({ url: this.documentUrl, dom_id: '#swagger-ui' })});\n`;
      return new Response(script, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
    }
    const type = Object.hasOwn(assets, name) ? assets[name] : undefined;
    if (type === undefined) throw new NotFound(`No file '${name.slice(0, 100)}' in the API reference`);
    let content = this.cache.get(name);
    if (content === undefined) {
      // Copied once into a plain ArrayBuffer, which `Response` takes as a body.
      content = readFile(join(assetFolder(), name)).then((bytes) => new Uint8Array(bytes));
      this.cache.set(name, content);
      content.catch(() => this.cache.delete(name));
    }
    return new Response(await content, {
      headers: { 'content-type': type, 'cache-control': 'public, max-age=3600' },
    });
  }
}
