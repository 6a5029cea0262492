import type { Db } from 'mongodb';
import type { Application } from 'plume';
import { Unavailable } from 'plume/errors';
import type { ServiceDocs } from 'plume/openapi';

/** How long readiness waits for the database's answer to a ping, in milliseconds. */
const PING_TIMEOUT_MS = 2_000;

/**
 * Health endpoints, the pattern to copy for load balancers and orchestrators:
 * - `GET /health` (liveness): 200 `{ status: 'ok' }` while the process serves requests;
 * - `GET /health/ready` (readiness): pings the database, 200 `{ status: 'ok', database: 'ok' }`,
 *   or 503 `Unavailable` JSON when the database does not answer within 2 s.
 * Both are open (no authentication) and only have `find`.
 */
export function health(db: Db) {
  return (app: Application): void => {
    app.use('health', { find: async () => ({ status: 'ok' }) }, { methods: ['find'], openapi: liveness });
    app.use(
      'health/ready',
      { find: async () => ({ status: 'ok', database: await ping(db) }) },
      { methods: ['find'], openapi: readiness },
    );
  };
}

const ok = { type: 'string', const: 'ok' };

/** The API description of `GET /health` (plume/openapi). */
const livenessAnswer = { type: 'object', required: ['status'], properties: { status: ok } };
const liveness: ServiceDocs = {
  tag: 'health',
  // find answers one object, not a list: the method's result replaces the default array of records.
  result: livenessAnswer,
  methods: { find: { summary: 'Liveness: the process serves requests', result: livenessAnswer } },
};

/** The API description of `GET /health/ready`: 503 `Unavailable` when the database does not answer. */
const readinessAnswer = {
  type: 'object',
  required: ['status', 'database'],
  properties: { status: ok, database: ok },
};
const readiness: ServiceDocs = {
  tag: 'health',
  result: readinessAnswer,
  methods: {
    find: {
      summary: 'Readiness: the database answers a ping (503 Unavailable when it does not)',
      result: readinessAnswer,
    },
  },
};

async function ping(db: Db): Promise<'ok'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer')), PING_TIMEOUT_MS);
  });
  try {
    await Promise.race([db.command({ ping: 1 }), timeout]);
    return 'ok';
  } catch {
    throw new Unavailable('The database is not reachable', { data: { database: 'down' } });
  } finally {
    clearTimeout(timer);
  }
}
