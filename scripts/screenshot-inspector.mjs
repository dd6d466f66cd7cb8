#!/usr/bin/env node
// Regenerates docs/inspector.png: starts the simulator on the default scenario, sends the traffic a frontend
// would (a message page, the pending forms, a key connected, a typo, an error a run-time rule scripts),
// advances the clock, opens one exchange, and photographs the page in headless Chromium. With --url it
// photographs the inspector of a simulator already running there instead, as it is.
//
//   node scripts/screenshot-inspector.mjs [--dark] [--out docs/inspector.png] [--url URL] [--timeout 60s]
//
// Needs Chromium (CHROMIUM_PATH, default /usr/bin/chromium) and the dev dependencies (tsx, playwright-core).
// The inspector is a live page (its event stream never ends), so "done" is the page showing what it must,
// bounded by a wall-clock time-out; Chromium's own --virtual-time-budget would wait for the stream forever.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({
  options: {
    dark: { type: 'boolean', default: false },
    out: { type: 'string', default: 'docs/inspector.png' },
    url: { type: 'string' },
    timeout: { type: 'string', default: '60s' },
  },
});
const out = resolve(root, values.out);
const seconds = Number(/^(\d+)s?$/.exec(values.timeout)?.[1]);
if (!seconds) {
  console.error(`--timeout takes seconds, as 60 or 60s (got ${values.timeout})`);
  process.exit(2);
}
// Whatever hangs (a page that never shows what it must, a Chromium that never starts), the script ends.
setTimeout(() => {
  console.error(`no picture after ${seconds} s: is the simulator running at ${values.url ?? 'its own port'}?`);
  process.exit(1);
}, seconds * 1000).unref();

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  // As root Chromium refuses to start without --no-sandbox; the rest keeps it from calling out of a closed
  // network (each refused connection would only slow the start).
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({
  viewport: { width: 1440, height: 860 },
  deviceScaleFactor: 1,
  colorScheme: values.dark ? 'dark' : 'light',
});
page.setDefaultTimeout(seconds * 1000);

if (values.url !== undefined) {
  try {
    await page.goto(new URL('/__sim/', values.url).href).catch((error) => {
      console.error(`cannot open ${values.url}: ${error.message.split('\n')[0]} (is the simulator running there?)`);
      process.exit(1);
    });
    await page.locator('#connection[data-state="live"]').waitFor();
    await page.locator('#panel-state .res').first().waitFor();
    await photograph(page);
  } finally {
    await browser.close();
  }
  process.exit(0);
}

// The sources, not dist/: the picture shows the code as it is in this checkout.
register();
const { startSimulator } = await import('../src/hosts/start-simulator.ts');

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
const sim = await startSimulator({ scenario: 'default' });
try {
  const send = (method, path, body, headers = {}) =>
    fetch(`${sim.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((res) => res.text());

  await page.goto(`${sim.url}/__sim/`);
  await page.locator('#connection[data-state="live"]').waitFor();

  await send('GET', `/api/session/${SES}/message?limit=20`);
  await send('GET', '/api/form/request');
  await send('GET', '/api/integration');
  await send(
    'POST',
    '/api/integration/openai/connect/key',
    { key: 'sk-live-0123456789abcdef', label: 'Personal' },
    { authorization: 'Basic ZGV2Omh1bnRlcjI=' },
  );
  await send('POST', `/api/session/${SES}/agent`, { agent: 'plan' });
  await send('POST', `/api/session/${SES}/revert/stage`, { messageID: 'oops' });
  await send('GET', '/api/plugin');
  await send('GET', '/api/shell/sh_203a7e5c7001OpQrStUvWxYzAb');
  await sim.rules.add({
    when: { operation: 'v2.session.compact' },
    then: { error: { _tag: 'ConflictError', message: 'Session input already exists: msg_x', resource: 'msg_x' } },
    times: 1,
  });
  await send('POST', `/api/session/${SES}/compact`, { messageID: 'msg_203a52106001tZWYWeFGLbY095' });
  await send('GET', '/api/shel');
  await sim.clock.advance('15s');
  await send('GET', `/api/session/${SES}/message?limit=5&order=desc`);
  await send('GET', '/api/integration/attempt/con_203a64b00001CrBDw85dYNzrGb');

  await page.locator('#journal tbody tr', { hasText: 'connect/key' }).click();
  await page.locator('#detail .side-block').first().waitFor();
  await page.locator('#panel-state .res').first().waitFor();
  await photograph(page);
} finally {
  await browser.close();
  await sim.close();
}

async function photograph(page) {
  await page.mouse.move(0, 0);
  mkdirSync(dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  console.log(`wrote ${values.out}`);
}
