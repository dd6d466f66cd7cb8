/**
 * The inspector in a real browser (Debian's Chromium, driven by playwright-core): what a person sees at
 * /__sim/ as traffic arrives, as they advance the clock from the page and switch partitions, and that no
 * secret of a request ever reaches the page. Skipped only on a machine without Chromium outside CI.
 */
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/index.js';
import { CHROMIUM, noChromium, skippedWhen } from '../support/environment.js';

const SHELL = 'sh_203a7e5c7001OpQrStUvWxYzAb'; // shell-timeout: `npm run e2e`, times out at +5 s

describe('the inspector in Chromium', skippedWhen(noChromium()), () => {
  let sim: SimulatorHandle;
  let browser: Browser;
  let page: Page;
  /** Console errors and uncaught exceptions of the page (a CSP refusal shows up here too). */
  const problems: string[] = [];

  const send = (path: string, init: RequestInit = {}) => fetch(`${sim.url}${path}`, init);
  // playwright-core has no assertions of its own: vitest's expect.poll retries a read until it holds.
  const text = (locator: Locator) => expect.poll(() => locator.innerText(), { timeout: 10_000 });
  const rows = () => page.locator('#journal tbody tr[data-id]');

  beforeAll(async () => {
    sim = await startSimulator({ scenario: 'shell-timeout' });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(10_000);
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    await page.goto(`${sim.url}/__sim/`);
    await page.locator('#connection[data-state="live"]').waitFor();
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await sim?.close();
  });

  it('shows a request in the journal as it is answered, and opens it', { timeout: 30_000 }, async () => {
    expect((await send(`/api/shell/${SHELL}`)).status).toBe(200);
    const row = rows().filter({ hasText: 'v2.shell.get' });
    await row.waitFor();
    await text(row.locator('.c-status')).toBe('200');
    await text(row.locator('.c-layer')).toBe('scenario');

    await row.click();
    const detail = page.locator('#detail');
    await detail.locator('.side-block').first().waitFor();
    await text(detail.locator('.detail-head')).toContain(`/api/shell/${SHELL}`);
    await text(detail.locator('[aria-label="Request"]')).toContain(`GET /api/shell/${SHELL}`);
    await text(detail.locator('[aria-label="Response"]')).toContain('"status": "running"');

    // From the keyboard: Esc closes it, Enter on the focused row opens it again.
    await page.keyboard.press('Escape');
    await expect.poll(() => detail.isHidden()).toBe(true);
    await expect.poll(() => row.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => detail.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('advances the virtual clock from the page until the shell times out', { timeout: 30_000 }, async () => {
    const shell = page.locator('#panel-state section[aria-label="Shells"] tr', { hasText: SHELL });
    await text(shell).toContain('running');
    await page.getByRole('button', { name: '+15s' }).click();
    await text(shell).toContain('timeout');
    await text(page.locator('#now')).toBe('2026-11-22T09:00:15.000Z');
    // The transition is also in the events, with the timer that made it.
    await page.keyboard.press('2');
    await page
      .locator('#events li', { hasText: 'shell.exited' })
      .filter({ hasText: SHELL })
      .filter({ hasText: 'running → timeout' })
      .waitFor();
    await page.keyboard.press('1');
  });

  it('never lets a secret of a request reach the page', { timeout: 30_000 }, async () => {
    const res = await send('/api/integration/openai/connect/key', {
      method: 'POST',
      headers: { authorization: 'Basic c2VjcmV0', 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'sk-test-do-not-show', label: 'Work' }),
    });
    const id = res.headers.get('x-sim-request-id') ?? '';
    const row = page.locator(`#journal tbody tr[data-id="${id}"]`);
    await row.click();
    const request = page.locator('#detail [aria-label="Request"]');
    await text(request).toContain('"key": "[REDACTED]"');
    await text(request.locator('table.kv tr', { hasText: 'authorization' })).toContain('[REDACTED]');
    await text(request).toContain('"label": "Work"');
    const html = await page.content();
    const shown = await page.locator('body').innerText();
    for (const secret of ['c2VjcmV0', 'sk-test-do-not-show']) {
      expect(html).not.toContain(secret);
      expect(shown).not.toContain(secret);
    }
    await page.keyboard.press('Escape');
  });

  it('switches partition: the journal then shows that partition only', { timeout: 30_000 }, async () => {
    expect((await send('/api/plugin', { headers: { 'x-sim-partition': 'w2' } })).status).toBe(200);
    const select = page.locator('#partition');
    // The list is read again when the selector is about to be used.
    await select.focus();
    await select.locator('option[value="w2"]').waitFor({ state: 'attached' });
    await select.selectOption('w2');
    await text(page.locator('#connection')).toBe('live · w2');
    await rows().filter({ hasText: '/api/plugin' }).waitFor();
    await expect.poll(() => rows().count()).toBe(1);
    expect(page.url()).toContain('?partition=w2');

    // And back: the default partition's journal, without w2's request.
    await select.selectOption('default');
    await rows().filter({ hasText: 'v2.shell.get' }).waitFor();
    await expect.poll(() => rows().filter({ hasText: '/api/plugin' }).count()).toBe(0);
  });

  it('filters the journal from the keyboard', { timeout: 30_000 }, async () => {
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('/');
    await expect.poll(() => page.locator('#filter').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('shell.get');
    await text(page.locator('#count')).toBe('1 of 2');
    // Esc empties the filter, and a second one goes back to the rows.
    await page.keyboard.press('Escape');
    await text(page.locator('#count')).toBe('2 exchanges');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('#journal') !== null)).toBe(true);
  });

  it('tells apart requests answered at one virtual instant: the log number, and the wall time', async () => {
    const ids = [];
    for (let i = 0; i < 2; i++) ids.push((await send('/api/plugin')).headers.get('x-sim-request-id') ?? '');
    const [first, second] = ids.map((id) => page.locator(`#journal tbody tr[data-id="${id}"]`));
    if (!first || !second) throw new Error('two rows expected');
    await second.waitFor();
    // The virtual clock did not move between them; the log's number did.
    const virtual = async (row: Locator) => (await row.locator('.c-time').getAttribute('title'))?.split('\n')[0];
    expect(await virtual(first)).toMatch(/^virtual 2026-11-22T/);
    expect(await virtual(second)).toBe(await virtual(first));
    const seq = async (row: Locator) => Number(await row.locator('.c-seq').innerText());
    expect(await seq(second)).toBeGreaterThan(await seq(first));
    await text(second.locator('.c-time .wall')).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
  });

  it('has not logged a single error to the console', () => {
    expect(problems).toEqual([]);
  });
});
