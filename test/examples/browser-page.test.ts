/**
 * The browser example (examples/browser-page): installed from the packed package into a project of its own,
 * built as its README says, served, and driven in Chromium. The page's app lists the sessions, prompts one and
 * shows the turn streaming in, with the simulator running in the page behind msw's service worker.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, noChromium, skippedWhen } from '../support/environment.js';
import {
  cleanEnv,
  ensureSuccess,
  installExample,
  INSTALL_TIMEOUT,
  PACK_TIMEOUT,
  packedPackage,
  run,
} from '../support/packed-package.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/browser-page/', import.meta.url));

describe('the browser example', skippedWhen(noChromium()), () => {
  let project = '';
  let server: ChildProcess | undefined;
  let url = '';
  let browser: Browser;

  beforeAll(
    async () => {
      project = await installExample(EXAMPLE, await packedPackage());
      ensureSuccess(await run('npm', ['run', 'build'], { cwd: project, timeout: 60_000 }), 'npm run build');
      server = spawn(process.execPath, ['serve.mjs'], { cwd: project, env: { ...cleanEnv, PORT: '0' } });
      url = await new Promise<string>((resolve, reject) => {
        server?.stdout?.on('data', (chunk: Buffer) => {
          const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(String(chunk));
          if (found) resolve(found[0]);
        });
        server?.once('exit', (code) => reject(new Error(`serve.mjs exited with ${String(code)}`)));
      });
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    },
    PACK_TIMEOUT + INSTALL_TIMEOUT + 90_000,
  );

  afterAll(async () => {
    await browser?.close();
    server?.kill();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('type-checks against the installed declarations', async () => {
    const tsc = await run('npx', ['--no', '--', 'tsc', '--noEmit'], { cwd: project, timeout: 60_000 });
    expect(tsc.code, `${tsc.stdout}\n${tsc.stderr}`).toBe(0);
  }, 70_000);

  it('lists the sessions, prompts one, and shows the turn streaming in', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    await page.goto(url);
    await page.locator('body[data-ready="true"]').waitFor({ timeout: 20_000 });
    // The default scenario's sessions, from the simulator in the page (one more is opened later in the scenario).
    const sessions = page.getByRole('navigation', { name: 'Sessions' }).getByRole('button');
    await expect.poll(() => sessions.count()).toBe(4);

    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    const status = page.locator('#status');
    await expect.poll(() => status.innerText(), { timeout: 20_000 }).toBe('working…');
    // Streaming: the turn's output grows while the session is still busy.
    const output = page.getByLabel('Turn');
    await expect.poll(() => output.innerText(), { timeout: 20_000 }).toContain('→ read');
    expect(await status.innerText()).toBe('working…');
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toBe('idle');
    // The generated reply answers the prompt it was given, after the tools it ran.
    expect(await output.innerText()).toMatch(/→ edit[\s\S]*dark mode toggle/);
    expect(problems).toEqual([]);
  });
});
