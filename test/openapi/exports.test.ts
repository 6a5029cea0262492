import { describe, expect, it } from 'vitest';

describe('plume/openapi public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('plume/openapi')).sort()).toEqual([
      'AUTHENTICATE_MARK',
      'openapi',
      'serveOpenApi',
    ]);
  });
});
