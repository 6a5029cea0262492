#!/usr/bin/env node
// plume-db: the embedded MongoDB-compatible server, standalone. Needs `npm run build` (dist/).
import { main } from '../dist/embedded/cli.js';

main().catch((error) => {
  process.stderr.write(`plume-db: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
