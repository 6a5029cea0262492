import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src/', import.meta.url));

export default defineConfig({
  resolve: {
    // Tests import the public subpaths (`plume/http`, …) straight from source, like package.json's `source` condition.
    alias: [
      { find: /^plume$/, replacement: `${src}core/index.ts` },
      { find: /^plume\/([a-z-]+)$/, replacement: `${src}$1/index.ts` },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The example and createLogger() log every request; tests that check logs pass their own logger.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
    passWithNoTests: false,
  },
});
