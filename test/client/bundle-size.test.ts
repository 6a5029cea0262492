import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { bundleClient } from './bundle.js';

// The client is for browsers: it must bundle without Node built-ins, and stay small.
it('the client without authentication is at most 8 kB minified and gzipped, with no Node-only imports', async () => {
  const bundle = await bundleClient(['createClient'], { minify: true });
  const size = gzipSync(bundle.code).length;
  console.log(`plume/client (createClient) bundle: ${bundle.code.length} B minified, ${size} B gzipped`);
  expect(bundle.inputs.every((input) => /^src\/(client|errors)\//.test(input))).toBe(true);
  expect(bundle.code).not.toMatch(/withAuthentication|plume-jwt/);
  expect(size).toBeLessThanOrEqual(8 * 1024);
});

it('the whole client, authentication included, bundles for browsers from plume/client and plume/errors only', async () => {
  const bundle = await bundleClient(['createClient', 'withAuthentication', 'memoryStorage'], {
    minify: true,
  });
  console.log(`plume/client (all) bundle: ${gzipSync(bundle.code).length} B gzipped`);
  expect(bundle.inputs.filter((input) => !/^src\/(client|errors)\//.test(input))).toEqual([]);
  expect(bundle.code).toContain('plume-jwt');
});
