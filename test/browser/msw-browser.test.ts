/**
 * The same scenario and seed answer byte for byte alike through msw in Chromium (the browser build behind
 * msw's service worker), through msw in Node (`setupServer`), and over a socket (`startSimulator`): status,
 * headers (those a socket adds aside) and body, request after request, event stream included. The page is
 * built with esbuild from `test/fixtures/msw-browser`, as a user's bundler would build theirs.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { setupServer } from 'msw/node';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.js';
import { simulatorHandlers } from '../../src/msw/index.js';

type Handlers = typeof simulatorHandlers;
import { CHROMIUM, noChromium, skippedWhen } from '../support/environment.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/msw-browser');
const BASE = 'http://localhost:4096';
const SESSION = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';

interface Step {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** An event stream: only its first frame is kept, then the request is aborted. */
  stream?: true;
}

/** Every kind of answer: the world, the fallback, a Prefer control, the dialect's refusals, control, a stream. */
const STEPS: Step[] = [
  { method: 'GET', path: '/api/session' },
  { method: 'GET', path: `/api/session/${SESSION}` },
  { method: 'GET', path: `/api/session/${SESSION}/message?limit=2` },
  { method: 'GET', path: '/api/plugin' },
  { method: 'GET', path: '/api/plugin', headers: { prefer: 'code=401' } },
  { method: 'GET', path: '/api/nope' },
  { method: 'POST', path: '/api/session', body: { id: 'not-a-session-id' } },
  { method: 'POST', path: '/api/session', body: {} },
  { method: 'GET', path: '/api/event', stream: true },
  { method: 'POST', path: '/__sim/clock/advance', body: { by: '30s' } },
  { method: 'GET', path: '/api/session?limit=3' },
  { method: 'GET', path: '/api/form/request' },
  { method: 'GET', path: '/__sim/coverage' },
];

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * What the hosts add of their own: a socket's server its transport headers; an in-process host, which cannot
 * see whether the page sent an Origin, an answer any origin may read (see `toResponse`).
 */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'access-control-allow-origin']);

/**
 * Runs the steps with `fetch`, in order; also evaluated in the page, so it must stay self-contained. No Origin
 * is sent: a service worker never sees a request's Origin, so the page's requests reach the simulator without
 * one (and get no CORS headers, which a response made in the worker does not need).
 */
async function runSteps(steps: Step[], base: string): Promise<Seen[]> {
  const seen: Seen[] = [];
  for (const step of steps) {
    const headers: Record<string, string> = { ...step.headers };
    if (step.body !== undefined) headers['content-type'] = 'application/json';
    // An abort, not a reader's cancel, ends a stream: msw in Node passes on the one and not the other.
    const controller = new AbortController();
    const response = await fetch(`${base}${step.path}`, {
      method: step.method,
      headers,
      signal: controller.signal,
      body: step.body === undefined ? undefined : JSON.stringify(step.body),
    });
    let body: string;
    if (step.stream) {
      // The first frame, however the transport cut the bytes into chunks (a socket may send two frames as one).
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      body = '';
      while (!body.includes('\n\n')) body += decoder.decode((await reader.read()).value, { stream: true });
      body = body.slice(0, body.indexOf('\n\n') + 2);
      controller.abort();
    } else body = await response.text();
    const kept: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      kept[name] = value;
    });
    seen.push({ status: response.status, headers: kept, body });
  }
  return seen;
}

function withoutTransport(seen: Seen[]): Seen[] {
  return seen.map(({ status, headers, body }) => ({
    status,
    body,
    headers: Object.fromEntries(
      Object.entries(headers)
        .filter(([name]) => !TRANSPORT.has(name))
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
  }));
}

describe('msw in the browser', skippedWhen(noChromium()), () => {
  let work = '';
  let server: Server;
  let origin = '';
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'sim-msw-browser-'));
    await build({
      entryPoints: [join(FIXTURE, 'page.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      outfile: join(work, 'page.js'),
      alias: { 'session-agent-sim/msw': join(ROOT, 'dist/browser/msw.js') },
      logLevel: 'error',
    });
    cpSync(join(FIXTURE, 'index.html'), join(work, 'index.html'));
    cpSync(join(FIXTURE, 'fetched.yaml'), join(work, 'fetched.yaml'));
    cpSync(join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'), join(work, 'mockServiceWorker.js'));
    const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.yaml': 'text/yaml' };
    server = createServer((req, res) => {
      const name = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/$/, '/index.html');
      const file = join(work, name);
      if (!/^\/[\w.-]+$/.test(name) || !existsSync(file)) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': types[extname(name)] ?? 'application/octet-stream' });
      res.end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(String(error)));
    // Chromium logs each 4xx it is answered as a console error: those answers are the test's own requests.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        problems.push(message.text());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('answers byte for byte as msw in Node and a socket do', { timeout: 60_000 }, async () => {
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => (window as { simReady?: boolean }).simReady === true, undefined, {
      timeout: 30_000,
    });
    // The page's first answer (GET /api/session) is replayed on the other two, so all three start alike.
    const steps = [{ method: 'GET', path: '/api/session' }, ...STEPS];
    const inBrowser = await page.evaluate(
      ([source, list, base]) => (new Function(`return ${source}`)() as typeof runSteps)(list, base),
      [runSteps.toString(), STEPS, BASE] as const,
    );

    const inNode = await simulatorHandlers({ scenario: 'default', seed: 'compare' });
    const mswServer = setupServer(...inNode.handlers);
    mswServer.listen({ onUnhandledRequest: 'error' });
    let viaNodeMsw: Seen[];
    try {
      viaNodeMsw = await runSteps(steps, BASE);
    } finally {
      mswServer.close();
      await inNode.close();
    }
    const socket = await startSimulator({ scenario: 'default', seed: 'compare' });
    let viaSocket: Seen[];
    try {
      viaSocket = await runSteps(steps, socket.url);
    } finally {
      await socket.close();
    }

    for (const seen of [...inBrowser, ...viaNodeMsw]) expect(seen.headers['access-control-allow-origin']).toBe('*');
    for (const seen of viaSocket) expect(seen.headers['access-control-allow-origin']).toBeUndefined();
    const node = withoutTransport(viaNodeMsw.slice(1));
    expect(withoutTransport(inBrowser)).toEqual(node);
    expect(withoutTransport(viaSocket.slice(1))).toEqual(node);
    // Each kind of answer was there to compare.
    expect(node.map((seen) => seen.status)).toEqual([200, 200, 200, 200, 401, 404, 400, 200, 200, 200, 200, 200, 200]);
    expect(node[8]?.body).toContain('server.connected');
    expect(problems).toEqual([]);
  });

  it('serves a scenario the page fetches by URL, and names one it cannot fetch', { timeout: 60_000 }, async () => {
    await page.goto(`${origin}/?scenario=/fetched.yaml`);
    await page.waitForFunction(() => (window as { simReady?: boolean }).simReady === true, undefined, {
      timeout: 30_000,
    });
    const titles = await page.evaluate(async () => {
      const answer = await fetch('http://localhost:4096/api/session');
      return ((await answer.json()) as { data: Array<{ title: string }> }).data.map((session) => session.title);
    });
    expect(titles).toEqual(['From a fetched scenario']);

    const refused = await page.evaluate(async () => {
      const { simulatorHandlers } = (window as unknown as { simModule: { simulatorHandlers: Handlers } }).simModule;
      return simulatorHandlers({ scenario: '/missing.yaml' }).then(
        () => 'started',
        (error: { _tag?: string; tag?: string; message: string; hint?: string }) =>
          `${error.tag ?? ''}: ${error.message} ${error.hint ?? ''}`,
      );
    });
    expect(refused).toMatch(/^SimScenarioNotFoundError: No scenario "\/missing\.yaml".*answered 404/);
    expect(problems).toEqual([]);
  });
});
