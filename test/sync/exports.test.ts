import { describe, expect, it } from 'vitest';

describe('plume/sync public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('plume/sync')).sort()).toEqual(['Sync', 'getSync', 'sync']);
  });
});
