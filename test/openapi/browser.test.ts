import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';
import { launchBrowser, noBrowserReason } from '../support/browser.js';

if (noBrowserReason !== undefined) console.warn(`Skipping the /docs browser test: ${noBrowserReason}`);

describe.skipIf(noBrowserReason !== undefined)('the API reference page of the example in Chromium', () => {
  let database: Database;
  let running: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    database = await connectDatabase('', `plume_docs_${randomBytes(4).toString('hex')}`);
    running = await startServer({ port: 0, database, hashCost: 4 });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    await database?.db.dropDatabase().catch(() => undefined);
    await database?.close();
  });

  it('lists every service path, loads nothing from elsewhere, and runs GET /messages with "Try it out"', async () => {
    const document = (await (await fetch(`${running.url}/openapi.json`)).json()) as { paths: object };
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    // Offline: a request to any other origin is refused and remembered.
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(running.url) || url.startsWith('data:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(`${running.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    const listed = await page
      .locator('.opblock-summary-path')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-path')));
    for (const path of Object.keys(document.paths)) expect(listed).toContain(path);

    const operation = page.locator('#operations-messages-findMessages');
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    const body = await operation
      .locator('.live-responses-table .response-col_description pre')
      .first()
      .textContent();
    expect(JSON.parse(body ?? '')).toMatchObject({ total: 0, limit: 10, skip: 0, data: [] });

    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
