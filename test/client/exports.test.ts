import { describe, expect, it } from 'vitest';

describe('plume/client public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('plume/client')).sort()).toEqual([
      'Client',
      'createClient',
      'defaultStorage',
      'encodeQuery',
      'memoryStorage',
      'withAuthentication',
    ]);
  });
});
