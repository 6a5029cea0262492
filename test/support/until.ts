/** Test helper: waiting for something asynchronous to be seen, with a generous timeout. */

/**
 * Resolves once `check()` returns true (polled every 10 ms).
 * @throws Error "timed out" after `ms` milliseconds.
 */
export async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
