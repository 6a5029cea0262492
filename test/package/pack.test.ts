/**
 * plume as users install it: `npm pack` (which builds dist/ in `prepack`), then the tarball installed
 * into a fresh project outside this repository, where none of plume's dev dependencies exist. The
 * consumers in ./consumer use the installed package the ways a user would: plain ESM, strict
 * TypeScript (nodenext, no skipLibCheck), CommonJS require(), and the `plume-db` binary.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = fileURLToPath(new URL('./consumer/', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
};
/** `plume`, `plume/errors`, …: every subpath package.json exports, so new ones are covered too. */
const specifiers = Object.keys(pkg.exports).map((subpath) =>
  subpath === '.' ? 'plume' : `plume/${subpath.slice(2)}`,
);

const work = mkdtempSync(join(tmpdir(), 'plume-pack-'));
const project = join(work, 'consumer');
const tarball = join(work, `plume-${pkg.version}.tgz`);
let files: string[] = [];

async function inProject(command: string, args: string[]) {
  return run(command, args, { cwd: project, maxBuffer: 16 * 1024 * 1024, timeout: 480_000 });
}

beforeAll(async () => {
  await run('npm', ['pack', '--pack-destination', work], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  files = (await run('tar', ['-tzf', tarball])).stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^package\//, ''));
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'plume-consumer', version: '1.0.0', private: true, type: 'module' }),
  );
  // mongodb the way a user adds it: plume's own range, so npm installs one copy for both.
  await inProject('npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    tarball,
    `mongodb@${pkg.dependencies.mongodb}`,
  ]);
  for (const file of ['consumer.mjs', 'consumer.cjs', 'consumer.ts', 'tsconfig.json']) {
    copyFileSync(join(fixtures, file), join(project, file));
  }
  writeFileSync(
    join(project, 'subpaths.ts'),
    specifiers.map((specifier, i) => `import * as subpath${i} from '${specifier}';\n`).join('') +
      `export const loaded = [${specifiers.map((_, i) => `subpath${i}`).join(', ')}];\n`,
  );
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true, maxRetries: 5 }));

describe('the packed tarball', () => {
  it('holds the built code, types, LICENSE, README and package.json, and no source map', () => {
    for (const specifier of specifiers) {
      const entry = pkg.exports[specifier === 'plume' ? '.' : `./${specifier.slice(6)}`] as Record<
        string,
        string
      >;
      expect(files).toContain(entry.default!.slice(2));
      expect(files).toContain(entry.types!.slice(2));
    }
    expect(files).toEqual(
      expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'bin/plume-db.js']),
    );
    // Maps would point at ../../src, which is not shipped.
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(files.filter((file) => file.startsWith('src/') || file.startsWith('test/'))).toEqual([]);
  });

  it('has the metadata a registry shows', () => {
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/plume/package.json'), 'utf8'));
    expect(installed.license).toBe('MIT');
    expect(installed.repository.url).toMatch(/^git\+https:\/\//);
    expect(readFileSync(join(project, 'node_modules/plume/LICENSE'), 'utf8')).toContain('MIT License');
  });
});

describe('a fresh project that installed the tarball', () => {
  it('runs an ESM consumer of every subpath over HTTP on both transports', async () => {
    const { stdout } = await inProject('node', ['consumer.mjs']);
    expect(stdout).toContain('consumer.mjs: ok');
  }, 120_000);

  it('type-checks a strict TypeScript consumer (nodenext, no skipLibCheck) and runs it', async () => {
    await inProject('node', [tsc, '-p', 'tsconfig.json']).catch((error: { stdout: string }) => {
      throw new Error(`tsc failed:\n${error.stdout}`);
    });
    const { stdout } = await inProject('node', ['out/consumer.js']);
    expect(stdout).toContain('consumer.ts: ok');
  }, 180_000);

  it('require()s every subpath from CommonJS', async () => {
    const { stdout } = await inProject('node', ['consumer.cjs']);
    expect(stdout).toContain('consumer.cjs: ok');
  }, 60_000);

  it('runs npx plume-db --help', async () => {
    const { stdout } = await inProject('npx', ['--no-install', 'plume-db', '--help']);
    expect(stdout).toMatch(/^usage: plume-db/);
  }, 60_000);
});
