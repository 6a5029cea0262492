/**
 * The examples of docs/openapi.md, type-checked and run by test/docs/openapi.test.ts.
 * Keep each function identical to the snippet in the page it comes from.
 */
import type { Application } from 'plume';
import { AuthenticationStrategy, authenticate } from 'plume/authentication';
import { openapi, serveOpenApi, type OpenApiDocument, type ServiceDocs } from 'plume/openapi';
import { ObjectIdSchema, Type, querySyntax } from 'plume/schema';

/** "Describing a service". */
export const noteSchema = Type.Object(
  { _id: ObjectIdSchema(), text: Type.String({ minLength: 1 }), done: Type.Boolean() },
  { additionalProperties: false },
);

export function registerNotes(app: Application, notes: object) {
  app.use('notes', notes, {
    methods: ['find', 'get', 'create', 'patch', 'remove', 'archive'],
    openapi: {
      name: 'Note', // components Note, NoteData, NotePatch, NotePage
      description: 'Things to do',
      result: noteSchema,
      data: Type.Omit(noteSchema, ['_id']),
      patch: Type.Partial(Type.Omit(noteSchema, ['_id'])),
      query: querySyntax(noteSchema),
      methods: {
        archive: { summary: 'Archive done notes', data: Type.Object({}), result: null }, // 204
      },
    } satisfies ServiceDocs,
  });
  app.service('notes').hooks({ before: { create: [authenticate('jwt')] } });
}

/** "Serving /openapi.json and /docs". */
export function serveDocs(app: Application) {
  app.configure(serveOpenApi({ info: { title: 'Notes API', version: '1.0.0' } }));
}

/** "The document without the routes". */
export function writeDocument(app: Application): string {
  const document: OpenApiDocument = openapi(app, {
    info: { title: 'Notes API', version: '1.0.0' },
    servers: [{ url: 'https://api.example.com' }],
  });
  return JSON.stringify(document, null, 2); // e.g. for a client generator
}

/** "Turning it off": the document only, no page; and one service left out. */
export function documentWithoutPage(app: Application) {
  app.configure(serveOpenApi({ docsPath: false }));
  app.use('internal/metrics', { find: async () => ({ requests: 0 }) }, { openapi: false });
}

/** "Security": a strategy declares how the document describes it. */
export class ApiKeyStrategy extends AuthenticationStrategy {
  readonly securityScheme = { type: 'apiKey', in: 'header', name: 'X-API-Key' };

  override async authenticate() {
    return { authentication: { strategy: this.name } };
  }
}
