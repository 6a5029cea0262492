import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';

// examples/quickstart.ts is type-checked with the project; the README shows exactly its code.
it("the README's quick start is examples/quickstart.ts, at most 20 lines", async () => {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const file = await readFile(new URL('../../examples/quickstart.ts', import.meta.url), 'utf8');
  const block = /## Quick start\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  expect(file.split('\n').slice(1).join('\n')).toBe(block);
  expect(block!.trimEnd().split('\n').length).toBeLessThanOrEqual(20);
});

it('the README starts with the two commands, and the scripts they name exist', async () => {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const commands = /```sh\n(.*)\n(.*)\n```/.exec(readme);
  expect(commands?.[1]).toMatch(/^npm install && npm start\b/);
  expect(commands?.[2]).toMatch(/^npm install && npm test\b/);
  expect(pkg.scripts.start).toContain('examples/api/server.ts');
  expect(pkg.scripts.test).toBe('vitest run');
});

// examples/client.ts is type-checked with the project; the README shows exactly its code.
it("the README's client example is examples/client.ts, at most 10 lines", async () => {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const file = await readFile(new URL('../../examples/client.ts', import.meta.url), 'utf8');
  const block = /## Calling the API from a client\n\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  expect(file.split('\n').slice(1).join('\n')).toBe(block);
  expect(block!.trimEnd().split('\n').length).toBeLessThanOrEqual(10);
});
