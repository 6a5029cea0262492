#!/usr/bin/env node
// plume-db: the embedded MongoDB-compatible server, standalone. In a clone of the repository it runs the
// TypeScript sources through tsx (a dev dependency), so it needs no build and never runs a stale one; an
// installed package has no sources and runs its built code (dist/).
import { existsSync } from 'node:fs';

async function loadCli() {
  const source = new URL('../src/embedded/cli.ts', import.meta.url);
  if (!existsSync(source)) return import(new URL('../dist/embedded/cli.js', import.meta.url).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(source.href);
}

loadCli()
  .then(({ main }) => main())
  .catch((error) => {
    process.stderr.write(`plume-db: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
