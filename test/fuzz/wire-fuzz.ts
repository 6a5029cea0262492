/**
 * Wire-protocol fuzzer for the embedded database (a tool, not a CI test). It starts the server in this
 * process on a temporary data directory and sends, over raw sockets, mutated OP_MSG/OP_QUERY/
 * OP_COMPRESSED messages, every command with hostile arguments, and grammar-built pipelines and
 * updates. It reports: uncaught exceptions; a well-framed request answered by a closed connection;
 * a reply that is not valid BSON or not an answer to the request; a JavaScript error surfacing in an
 * errmsg; a second client's `ping` unanswered within 5 s; acknowledged writes (and a canary collection
 * the fuzzer never touches) missing or changed, before and after a restart from disk.
 *
 * Scenarios (scenarios.ts, catalog-scenarios.ts, index-scenarios.ts) run sequences of commands on two connections with oracles of their own:
 * no document half-updated after an error, no unique index violated, transactions isolated, change
 * streams resumable, and each scenario's collections as they were left, after the run and a restart.
 *
 *   npx tsx --conditions=source test/fuzz/wire-fuzz.ts [--seed 1] [--cases 2000] [--mode all|frames|commands|grammar|scenarios] [--scenario cursors,capped] [--case N | --from N]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BSON } from 'bson';
import { MongoClient } from 'mongodb';
import { encodeDocument } from './bson-writer.js';
import { CATALOG_SCENARIOS } from './catalog-scenarios.js';
import { CHANGE_SCENARIOS } from './change-scenarios.js';
import { FIND_AGGREGATE_SCENARIOS } from './find-aggregate-scenarios.js';
import { INDEX_SCENARIOS } from './index-scenarios.js';
import { FUZZED_COMMANDS, FUZZ_DB, hostileCommand } from './commands.js';
import { commandMessage, mutate, opQuery, type Mutant } from './frames.js';
import { filter, pipeline, update } from './grammar.js';
import { Random, makeDoc } from './hostile-values.js';
import { plausiblePipeline } from './plausible-stages.js';
import { RawConnection } from './raw-connection.js';
import { SCENARIOS, SCENARIO_DB, snapshot, type ScenarioContext } from './scenarios.js';
import { ServerProcess } from './server-process.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const seed = Number(args.get('seed') ?? 1);
const cases = Number(args.get('cases') ?? 2000);
const mode = args.get('mode') ?? 'all';
const only = args.has('case') ? Number(args.get('case')) : undefined;
const scenarios = {
  ...SCENARIOS,
  ...CATALOG_SCENARIOS,
  ...INDEX_SCENARIOS,
  ...CHANGE_SCENARIOS,
  ...FIND_AGGREGATE_SCENARIOS,
};
/** `--scenario a,b` runs only those scenarios. */
const scenarioNames = args.get('scenario')?.split(',') ?? Object.keys(scenarios);

/** What a JavaScript exception looks like when it leaks into an errmsg (MongoDB would give a proper code). */
const JS_ERROR =
  /TypeError|RangeError|ReferenceError|SyntaxError|Cannot read propert|Cannot set propert|is not a function|Maximum call stack|is not iterable|is not defined|Invalid array length|Cannot convert|BSONError|BSONVersionError|circular structure|Invalid time value|of undefined(?! variable)|undefined is(?! not valid type)|\[object Object\]|"unsigned":(?:true|false)/;

interface Finding {
  kind: string;
  detail: string;
  caseId: number;
  sample: string;
}
const findings = new Map<string, Finding>();
const counts = new Map<string, number>();

function record(kind: string, detail: string, caseId: number, sample: string): void {
  const key = `${kind}: ${detail.replace(/\d+/g, 'N').slice(0, 160)}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
  if (!findings.has(key)) findings.set(key, { kind, detail, caseId, sample: sample.slice(0, 600) });
}

let currentCase = -1;
let currentSample = '';

function describe(value: unknown): string {
  try {
    return BSON.EJSON.stringify(value, { relaxed: true }).replace(/"x{200,}"/g, '"x…"');
  } catch {
    return String(value);
  }
}

/** Every string under an `errmsg` key in a reply. */
function errmsgs(value: unknown, out: string[] = []): string[] {
  if (value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) {
    if (k === 'errmsg' && typeof v === 'string') out.push(v);
    else errmsgs(v, out);
  }
  return out;
}

/** The random source of case `id` and its kind. */
function caseKind(id: number): { r: Random; kind: string } {
  const r = new Random(seed * 1_000_003 + id);
  const kind = mode === 'all' ? r.pick(['frames', 'commands', 'grammar', 'grammar', 'scenarios']) : mode;
  return { r, kind };
}

/** One case: the bytes to send, what it is, and whether MongoDB would answer it rather than close. */
function buildCase(r: Random, kind: string, id: number): Mutant & { sample: string } {
  const requestId = id + 1000;
  if (kind === 'frames') {
    const command = hostileCommand(r, r.pick(['ping', 'insert', 'find', 'hello', 'aggregate', 'update']));
    const body = encodeDocument(command);
    return { ...mutate(r, requestId, commandMessage(requestId, command), body), sample: describe(command) };
  }
  let command: Record<string, unknown>;
  if (kind === 'commands') {
    command = hostileCommand(r, r.pick(FUZZED_COMMANDS));
  } else {
    const roll = r.int(4);
    if (roll === 0)
      command = makeDoc([
        ['aggregate', 'c'],
        ['pipeline', r.chance(0.5) ? plausiblePipeline(r) : pipeline(r)],
        ['cursor', {}],
        ['$db', FUZZ_DB],
      ]);
    else if (roll === 1)
      command = makeDoc([
        ['update', 'c'],
        [
          'updates',
          [
            makeDoc([
              ['q', filter(r, 1)],
              ['u', update(r)],
              ['multi', r.chance(0.5)],
              ['upsert', r.chance(0.2)],
            ]),
          ],
        ],
        ['$db', FUZZ_DB],
      ]);
    else if (roll === 2)
      command = makeDoc([
        ['find', 'c'],
        ['filter', filter(r)],
        ['$db', FUZZ_DB],
      ]);
    else
      command = makeDoc([
        ['findAndModify', 'c'],
        ['query', filter(r, 1)],
        ['update', update(r)],
        ['upsert', r.chance(0.3)],
        ['new', r.chance(0.5)],
        ['$db', FUZZ_DB],
      ]);
  }
  const body = encodeDocument(command);
  const legacy = r.chance(0.05);
  const bytes = legacy ? opQuery(requestId, `${FUZZ_DB}.$cmd`, body) : commandMessage(requestId, command);
  return {
    name: `${kind}:${Object.keys(command)[0]}${legacy ? ' (OP_QUERY)' : ''}`,
    bytes,
    framed: true,
    sample: describe(command),
  };
}

const SEED_DOCS = [
  { _id: 1, a: 1, b: 'x', s: 'hello', n: 5, arr: [1, 2, 3], d: new Date(0), x: { y: 1 } },
  { _id: 2, a: { b: 2, c: [1, { d: 1 }] }, arr: [{ a: 1 }, { a: 2 }], n: -1.5, s: '' },
  { _id: 3, a: null, arr: [], n: BSON.Long.fromNumber(7), s: 'ÉÇ😀' },
  { _id: 4, a: [1, [2, [3]]], n: BSON.Decimal128.fromString('NaN'), d: new Date(8.64e15) },
  { _id: 'str', a: 'text', arr: [null, 'b', 3.5], n: NaN },
];

const CANARY = Array.from({ length: 50 }, (_, i) => ({
  _id: i,
  text: `row ${i}`,
  nested: { list: [i, i * 2] },
}));

/** Restarts a server that died or hung (SIGKILL), recording why. */
async function replace(server: ServerProcess, dbPath: string, why: string): Promise<ServerProcess> {
  record('server restarted', why, currentCase, currentSample);
  await server.stop('SIGKILL');
  return ServerProcess.start(dbPath);
}

async function main(): Promise<void> {
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'plume-wirefuzz-'));
  let protocolErrors = 0;
  let server = await ServerProcess.start(dbPath);
  const uri = (): string => `mongodb://127.0.0.1:${server.port}/?directConnection=true`;
  let driver = new MongoClient(uri());
  await driver.db('canary').collection<{ _id: number }>('base').insertMany(CANARY);
  const reset = async (): Promise<void> => {
    await driver.db(FUZZ_DB).dropDatabase();
    await driver
      .db(FUZZ_DB)
      .collection<{ _id: unknown }>('c')
      .insertMany(SEED_DOCS.map((d) => ({ ...d })));
    await driver
      .db(FUZZ_DB)
      .collection<{ _id: unknown }>('d')
      .insertMany(SEED_DOCS.map((d) => ({ ...d })));
    // A view for the stages that name `v` ($lookup, $unionWith, $graphLookup).
    await driver
      .db(FUZZ_DB)
      .createCollection('v', { viewOn: 'd', pipeline: [{ $match: { a: { $ne: 1 } } }] });
  };
  await reset();

  let monitor = await RawConnection.open(server.port);
  let fuzz = await RawConnection.open(server.port);
  const acknowledged: number[] = [];
  const first = only ?? Number(args.get('from') ?? 0);
  const last = only ?? cases - 1;
  const began = Date.now();
  const restart = async (why: string): Promise<void> => {
    protocolErrors += server.protocolErrors;
    monitor.close();
    fuzz.close();
    await driver.close(true);
    server = await replace(server, dbPath, why);
    driver = new MongoClient(uri());
    monitor = await RawConnection.open(server.port);
    fuzz = await RawConnection.open(server.port);
  };
  let racer = await RawConnection.open(server.port);
  /** Each scenario's collections as it left them, by name: checked after the run and after a restart. */
  const scenarioState = new Map<string, string>();
  const stateOf = async (conn: RawConnection, coll: string): Promise<string> => {
    const ctx: ScenarioContext = {
      r: new Random(0),
      a: conn,
      b: conn,
      coll,
      record: () => undefined,
      inspect: () => undefined,
      log: [],
    };
    return JSON.stringify([...(await snapshot(ctx))]);
  };
  for (let id = first; id <= last; id++) {
    currentCase = id;
    const { r, kind } = caseKind(id);
    if (kind === 'scenarios') {
      if (fuzz.closed) fuzz = await RawConnection.open(server.port);
      if (racer.closed) racer = await RawConnection.open(server.port);
      const name = r.pick(scenarioNames);
      const ctx: ScenarioContext = {
        r,
        a: fuzz,
        b: racer,
        coll: `s${id}`,
        log: [],
        record: (k, detail) => record(k, `${name}: ${detail}`, id, `${name} ${ctx.log.join(' ; ')}`),
        inspect: (command, reply) => {
          for (const msg of errmsgs(reply))
            if (JS_ERROR.test(msg)) ctx.record('JavaScript error in errmsg', `${command}: ${msg}`);
        },
      };
      currentSample = name;
      if (args.has('verbose')) process.stderr.write(`case ${id} scenario ${name}\n`);
      const running = scenarios[name]!(ctx).catch((error: unknown) =>
        record('scenario threw', String(error), id, ctx.log.join(' ; ')),
      );
      const ping = await monitor.command({ ping: 1, $db: 'admin' }, 5_000);
      if (ping.kind !== 'reply')
        record('ping unanswered', `monitor ping: ${ping.kind} during ${name}`, id, name);
      await running;
      if (args.has('verbose')) process.stderr.write(`${name}\n  ${ctx.log.join('\n  ').slice(0, 3000)}\n`);
      for (const line of server.unexpected.splice(0)) record('server stderr', line, id, ctx.log.join(' ; '));
      if (server.exited) {
        record('server died', server.exited, id, ctx.log.join(' ; '));
        await restart('died');
        racer = await RawConnection.open(server.port);
        continue;
      }
      for (const coll of [ctx.coll, `${ctx.coll}_t`]) scenarioState.set(coll, await stateOf(racer, coll));
      continue;
    }
    const c = buildCase(r, kind, id);
    currentSample = `${c.name} ${c.sample}`;
    if (args.has('verbose')) process.stderr.write(`case ${id} ${c.name} ${c.bytes.length} bytes\n`);
    if (fuzz.closed) fuzz = await RawConnection.open(server.port);
    const requestId = c.bytes.length >= 8 ? c.bytes.readInt32LE(4) : 0;
    const answer = fuzz.send(c.bytes, c.silent ? 0 : 30_000);
    // Another client's simple command must be answered while the fuzzed one runs.
    const ping = await monitor.command({ ping: 1, $db: 'admin' }, 5_000);
    if (ping.kind !== 'reply')
      record('ping unanswered', `monitor ping: ${ping.kind} during ${c.name}`, id, currentSample);
    const result = await answer;
    for (const line of server.unexpected.splice(0)) record('server stderr', line, id, currentSample);
    if (server.exited) {
      record('server died', server.exited, id, currentSample);
      await restart('died');
      continue;
    }
    if (result.kind === 'timeout' && !c.silent) {
      record('no reply', `no reply in 30 s to ${c.name}`, id, currentSample);
      await restart('hung');
      continue;
    }
    if (result.kind === 'closed' && c.framed) {
      // The log line is written as the connection closes: give it a moment to arrive.
      await new Promise((resolve) => setTimeout(resolve, 50));
      record('closed without reply', `${c.name}: ${server.lastProtocolError}`, id, currentSample);
    }
    if (result.kind === 'reply') {
      const problem = RawConnection.check(
        result.frame,
        requestId,
        c.bytes.readInt32LE(12) === 2004 ? 1 : 2013,
      );
      if (typeof problem === 'string') record('bad reply', `${c.name}: ${problem}`, id, currentSample);
      else
        for (const msg of errmsgs(problem))
          if (JS_ERROR.test(msg))
            record('JavaScript error in errmsg', `${c.name.split(' ')[0]}: ${msg}`, id, currentSample);
    }
    if (c.silent && !fuzz.closed) {
      const after = await fuzz.command({ ping: 1, $db: 'admin' }, 10_000);
      if (after.kind !== 'reply') record('connection dead after moreToCome', after.kind, id, currentSample);
    }
    // An acknowledged write from the monitor: checked after the run and after a restart.
    if (id % 10 === 0) {
      const ack = await monitor.command(
        { insert: 'acks', documents: [{ _id: id, at: id }], $db: 'canary' },
        5_000,
      );
      if (ack.kind === 'reply' && typeof ack.doc !== 'string' && ack.doc['ok'] === 1 && ack.doc['n'] === 1)
        acknowledged.push(id);
      else record('write not acknowledged', describe(ack.kind === 'reply' ? ack.doc : ack.kind), id, '');
    }
    if (id % 200 === 199) await reset();
    if (id % 500 === 499)
      process.stderr.write(
        `case ${id + 1}/${cases} ${((Date.now() - began) / 1000).toFixed(0)} s, ${findings.size} distinct findings\n`,
      );
  }
  monitor.close();
  fuzz.close();
  racer.close();

  const verifyScenarios = async (when: string): Promise<void> => {
    const conn = await RawConnection.open(server.port);
    for (const [coll, state] of scenarioState)
      if ((await stateOf(conn, coll)) !== state)
        record(
          'scenario data changed',
          `${when}: ${SCENARIO_DB}.${coll}`,
          Number(coll.slice(1).split('_')[0]),
          state.slice(0, 300),
        );
    conn.close();
  };
  await verifyScenarios('after the run');

  const verify = async (client: MongoClient, when: string): Promise<void> => {
    const base = await client
      .db('canary')
      .collection<{ _id: number }>('base')
      .find()
      .sort({ _id: 1 })
      .toArray();
    if (JSON.stringify(base) !== JSON.stringify(CANARY)) record('canary changed', when, -1, '');
    const acks = await client
      .db('canary')
      .collection<{ _id: number }>('acks')
      .find()
      .sort({ _id: 1 })
      .toArray();
    const ids = acks.map((d) => d._id);
    if (JSON.stringify(ids) !== JSON.stringify(acknowledged))
      record(
        'acknowledged writes lost',
        `${when}: ${acknowledged.length} acknowledged, ${ids.length} stored`,
        -1,
        '',
      );
  };
  await verify(driver, 'after the run');
  await driver.close();
  protocolErrors += server.protocolErrors;
  await server.stop();
  // The data directory the run leaves must open again: a server that cannot start on it has lost it all.
  const restarted = await ServerProcess.start(dbPath).catch((error: Error) => {
    record('server cannot start on its data directory', `${error.message} (kept in ${dbPath})`, -1, '');
    return undefined;
  });
  if (restarted) {
    server = restarted;
    const again = new MongoClient(uri());
    await verify(again, 'after a restart');
    await verifyScenarios('after a restart');
    await again
      .db(FUZZ_DB)
      .collection('c')
      .find()
      .toArray()
      .catch((error: Error) => record('stored data unreadable', error.message, -1, ''));
    await again.close();
    await server.stop();
    for (const line of server.unexpected) record('server stderr', line, -1, 'restart');
    fs.rmSync(dbPath, { recursive: true, force: true });
  }

  process.stdout.write(
    `seed ${seed}, ${last - first + 1} cases (${mode}), ${protocolErrors} protocol errors logged, ${((Date.now() - began) / 1000).toFixed(0)} s\n`,
  );
  for (const [key, f] of findings) {
    process.stdout.write(
      `\n[${counts.get(key)}x] ${f.kind}: ${f.detail}\n  first at --case ${f.caseId}: ${f.sample}\n`,
    );
  }
  process.exitCode = findings.size > 0 ? 1 : 0;
}

await main();
