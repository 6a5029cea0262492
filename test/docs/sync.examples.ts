/**
 * The examples of docs/sync.md, type-checked and run by test/docs/examples.test.ts.
 * Keep each function identical to the snippet in the page it comes from.
 */
import type { Db } from 'mongodb';
import { ServerSentEvent, type Application } from 'plume';
import { getSync, sync } from 'plume/sync';

/** The first snippet: every instance configures the same collection. */
export function configureSync(app: Application, db: Db) {
  app.configure(sync({ Model: db.collection('plume_sync') }));
}

/** "Following events with positions": created messages as SSE events with ids. */
export async function* createdMessages(app: Application, lastEventId?: string) {
  const events = getSync(app)!.follow({ path: 'messages', event: 'created', after: lastEventId });
  for await (const event of events) yield new ServerSentEvent(event.data, event.position);
}
