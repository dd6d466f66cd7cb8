// Run by the msw measure where Chromium is: the browser build's start-up to its first answer on a page,
// msw's worker behind it (the page of test/fixtures/msw-browser, built with esbuild), over several fresh
// browser contexts. Prints one JSON object: the size of the build and the medians.
// Usage: node bench/suite/msw-browser-probe.mjs [--quick]
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/msw-browser');
const BUNDLE = join(ROOT, 'dist/browser/msw.js');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = process.argv.includes('--quick') ? 3 : 7;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const work = mkdtempSync(join(tmpdir(), 'sim-msw-browser-bench-'));
const server = createServer((req, res) => {
  const name = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/$/, '/index.html');
  const file = join(work, name);
  if (!/^\/[\w.-]+$/.test(name) || !existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': extname(name) === '.html' ? 'text/html' : 'text/javascript' });
  res.end(readFileSync(file));
});
let browser;
try {
  await build({
    entryPoints: [join(FIXTURE, 'page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    outfile: join(work, 'page.js'),
    alias: { 'session-agent-sim/msw': BUNDLE },
    logLevel: 'error',
  });
  cpSync(join(FIXTURE, 'index.html'), join(work, 'index.html'));
  cpSync(join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'), join(work, 'mockServiceWorker.js'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    // A fresh context: no worker registered yet, nothing cached, as on a first visit.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => globalThis.simReady === true, undefined, { timeout: 30_000 });
    runs.push(await page.evaluate(() => globalThis.timings));
    await context.close();
  }
  const bytes = readFileSync(BUNDLE);
  console.log(
    JSON.stringify({
      bundleBytes: bytes.length,
      bundleGzipBytes: gzipSync(bytes).length,
      simulatorMs: median(runs.map((r) => r.simulator)),
      startMs: median(runs.map((r) => r.start)),
      firstAnswerMs: median(runs.map((r) => r.firstAnswer)),
      sinceNavigationMs: median(runs.map((r) => r.sinceNavigation)),
    }),
  );
} finally {
  await browser?.close();
  server.close();
  rmSync(work, { recursive: true, force: true });
}
