/**
 * Every shell line of README.md and docs/*.md runs as written: the README's walkthrough against the
 * example API (both transports serve the same answers; the Web Standard one is used), the reference
 * pages' curl lines against a stub server answering every request with `{}` (their apps are
 * fragments, so this checks the command lines themselves: quoting, globbing, files they name).
 * Commands that run for minutes or need a MongoDB server are listed in NOT_RUN with the reason.
 */
import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** A curl failure, except 28 (time-out), which is how an event stream (`curl -N`) is cut here. */
const CURL_ERROR = /curl: \((?!28\))\d+\)/;

/** Commands not run here, and why. */
const NOT_RUN: [RegExp, string][] = [
  [
    /^npm install && npm (start|test)\b/,
    'test/example/readme.test.ts checks the scripts; npm test is this suite',
  ],
  [/^npm run bench\b/, 'runs for minutes'],
  [
    /^npm install plume mongodb$/,
    'installs from the registry; test/package/pack.test.ts installs the packed tarball so',
  ],
  [/^MONGODB_URL=.* npm start$/, 'needs a MongoDB server'],
  [/^npm start &/, 'starts the example; the walkthrough and test/example run it'],
  [/^npx plume-db --port/, 'serves until stopped; test/package/pack.test.ts runs plume-db --help'],
];

/** The commands of the ```sh blocks of a page (continuation lines joined), and its inline `curl …` spans. */
function shellCommands(page: string): { blocks: string[][]; inline: string[] } {
  const markdown = readFileSync(join(root, page), 'utf8');
  const blocks = [...markdown.matchAll(/^( *)```(?:sh|bash|shell)\n([\s\S]*?)^\1```/gm)].map((match) =>
    match[2]!
      .replace(/\\\n/g, ' ')
      .split('\n')
      .map((line) => line.slice(match[1]!.length).trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  const inline = [...markdown.matchAll(/`(curl [^`]+)`/g)].map((match) => match[1]!);
  return { blocks, inline };
}

const pages = ['README.md', ...readdirSync(join(root, 'docs')).map((file) => `docs/${file}`)];
const isRun = (command: string) => !NOT_RUN.some(([pattern]) => pattern.test(command));

/** Runs `script` with bash; a `curl -N` (event stream) is cut after 3 s, which counts as success. */
function bash(script: string, cwd: string) {
  const prelude = [
    'set -eo pipefail',
    'curl() { if [[ " $* " == *" -N "* ]]; then command curl --max-time 3 "$@" || [ $? -eq 28 ]; else command curl "$@"; fi; }',
  ].join('\n');
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile('bash', ['-c', `${prelude}\n${script}`], { cwd, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'plume-shell-'));
  writeFileSync(join(work, 'photo.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
  // The commands run in this scratch folder, never in the repository (plume-db --dbpath ./data would
  // leave data files there); npx finds plume-db through the folder's own node_modules/.bin.
  writeFileSync(join(work, 'package.json'), '{ "name": "docs-shell", "private": true }\n');
  mkdirSync(join(work, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(join(root, 'bin', 'plume-db.js'), join(work, 'node_modules', '.bin', 'plume-db'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('every page has its shell lines found, and only the listed commands are not run', () => {
  const all = pages.flatMap((page) => {
    const { blocks, inline } = shellCommands(page);
    return [...blocks.flat(), ...inline];
  });
  expect(all.length).toBeGreaterThan(40);
  for (const [pattern] of NOT_RUN) expect(all.some((command) => pattern.test(command))).toBe(true);
});

describe("README.md's walkthrough against the example API", () => {
  let database: Database;
  let running: RunningServer;

  beforeAll(async () => {
    database = await connectDatabase('', `plume_shell_${Date.now()}`);
    running = await startServer({ port: 0, database, hashCost: 4 });
  });
  afterAll(async () => {
    await running?.close();
    await database?.db.dropDatabase().catch(() => undefined);
    await database?.close();
  });

  it('runs every line of its shell blocks', async () => {
    const { blocks } = shellCommands('README.md');
    const walkthrough = blocks.find((block) => block[0]?.startsWith('API='));
    expect(walkthrough).toBeDefined();
    expect(walkthrough![0]).toBe('API=http://127.0.0.1:3030');
    const script = [`API=${running.url}`, ...walkthrough!.slice(1)].join('\n');
    const { code, output } = await bash(script, root);
    expect(output).not.toMatch(CURL_ERROR);
    expect(code, output).toBe(0);
    // The walkthrough's answers: the signup, a message list, the 400 naming $where.
    expect(output).toContain('"email":"ada@example.com"');
    expect(output).toContain('Hello plume');
    expect(output).toMatch(/\$where/);
  }, 90_000);
});

describe('shell lines of the reference pages, against a stub server', () => {
  let stub: Server;
  let origin: string;

  beforeAll(async () => {
    stub = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    origin = `127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => stub.close(resolve)));

  const commandsOf = (page: string) => {
    const { blocks, inline } = shellCommands(page);
    const walkthrough = (block: string[]) => block[0]?.startsWith('API=') === true;
    return [
      ...blocks.filter((block) => page !== 'README.md' || !walkthrough(block)).flat(),
      ...inline,
    ].filter(isRun);
  };

  it.each(pages)(
    '%s',
    async (page) => {
      for (const command of commandsOf(page)) {
        // Only the host changes: localhost:3030 becomes the stub.
        const { code, output } = await bash(command.replace(/(localhost|127\.0\.0\.1):3030/g, origin), work);
        expect(output, command).not.toMatch(CURL_ERROR);
        expect(code, `${command}\n${output}`).toBe(0);
      }
    },
    120_000,
  );
});
