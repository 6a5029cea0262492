import { afterEach, describe, expect, it } from 'vitest';
import { defaultStorage } from 'plume/client';

// The browser test (browser.test.ts) proves the default keeps the token in a real page's localStorage;
// these cover the runtimes and pages where that storage is missing or denied.
describe('defaultStorage', () => {
  const scope = globalThis as { window?: unknown };
  afterEach(() => {
    delete scope.window;
  });

  it('keeps tokens in memory where there is no window (Node, workers)', async () => {
    const storage = defaultStorage();
    await storage.setItem('k', 'v');
    expect(await storage.getItem('k')).toBe('v');
    expect(await defaultStorage().getItem('k')).toBeNull();
  });

  it("uses the page's localStorage when there is one", () => {
    const localStorage = { getItem: () => 'stored', setItem() {}, removeItem() {} };
    scope.window = { localStorage };
    expect(defaultStorage()).toBe(localStorage);
  });

  it('falls back to memory where reading localStorage throws (storage denied)', async () => {
    scope.window = {
      get localStorage(): never {
        throw new Error('SecurityError');
      },
    };
    const storage = defaultStorage();
    expect(await storage.getItem('k')).toBeNull();
  });
});
