// Soak: N minutes (default 10) of mixed traffic against one in-process simulator, watching memory, errors and handles.
// - 16 keep-alive loopback clients cycle through the valid request of each of the 23 operations
//   (test/support/requests.ts) in 8 partitions, addressed by `X-Sim-Partition` or the `/__partition/NAME` prefix;
// - 50 event-stream subscribers (`GET /api/event`) spread over the partitions read and count every frame, one in
//   five hanging up and subscribing again every few seconds;
// - the control plane moves each partition's clock, resets it and switches its scenario, round robin.
// Every answer is checked: the operation the simulator says it routed to, a declared status, no spec violation
// (its own `x-sim-violations` and the tests' independent ajv checker), never a `validation` / `simulator` layer
// for a valid request, never a 5xx or a connection error; a declared 4xx the world explains (a form already
// answered, an id the switched-to scenario lacks) is expected and tallied. Any `[err_…]` log line is an error.
// Memory is sampled every 10 s (after a full GC with --expose-gc): RSS, the live heap (heapUsed) and RSS outside
// V8's heap (rss - heapTotal). After the warm-up (4 min, or 40% of a shorter run; see WARMUP_MS) least-squares
// slopes must stay under a limit: heapUsed under --max-slope (default 1 MB/min), RSS and rss - heapTotal under
// --max-rss-slope (default 2 MB/min). At ~265 req/s (16,000 a minute) and 7 world restarts a minute, 1 MB/min is
// 65 bytes kept per request or 150 KB per restart, 2 MB/min twice that. The limits sit well above each fit's noise
// so a clean run does not fail by chance: over the 6 min after the warm-up the standard error of the heapUsed
// slope was 0.05-0.1 MB/min, that of RSS (which also carries V8's committed-but-free pages) 0.3-0.5 MB/min.
// `process.getActiveResourcesInfo()` before start and after close must match, and the simulator must hold no
// subscriber once every client has hung up.
// Usage: npm run soak [-- --minutes 1] (or SOAK_MINUTES=1); options below. Loopback only.
// Prints a summary, then the JSON summary as the last line (or to --json FILE). Exits 1 on any failure.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { tsImport } from 'tsx/esm/api';

const { values: opts } = parseArgs({
  options: {
    minutes: { type: 'string', default: process.env.SOAK_MINUTES ?? '10' },
    interval: { type: 'string', default: process.env.SOAK_INTERVAL ?? '10' },
    clients: { type: 'string', default: '16' },
    rate: { type: 'string', default: process.env.SOAK_RATE ?? '300' },
    partitions: { type: 'string', default: '8' },
    subscribers: { type: 'string', default: '50' },
    'max-slope': { type: 'string', default: '1' },
    'max-rss-slope': { type: 'string', default: '2' },
    json: { type: 'string' },
  },
});
const MINUTES = Number(opts.minutes);
const INTERVAL_MS = Number(opts.interval) * 1000;
const CLIENTS = Number(opts.clients);
const RATE = Number(opts.rate); // requests per second, all clients together; 0: as fast as they can
const PARTITIONS = Number(opts.partitions);
const SUBSCRIBERS = Number(opts.subscribers);
const MAX_SLOPE = Number(opts['max-slope']);
const MAX_RSS_SLOPE = Number(opts['max-rss-slope']);
for (const [name, value] of Object.entries({
  MINUTES,
  INTERVAL_MS,
  CLIENTS,
  RATE,
  PARTITIONS,
  SUBSCRIBERS,
  MAX_SLOPE,
  MAX_RSS_SLOPE,
})) {
  if (!Number.isFinite(value) || value < 0) throw new Error(`soak: ${name} must be a non-negative number`);
}
const DURATION_MS = MINUTES * 60_000;
// The warm-up covers, first, the partitions' logs filling their rings (5000 entries each, in about 100 s at
// 300 req/s: until then the live heap grows by design), then V8 settling how much old space it keeps committed:
// measured over 10 min, live heap and RSS outside V8's heap were flat from minute 2, but V8's committed heap
// (heapTotal, hence RSS) grew another ~10 MB, 2.1 MB/min, until minute 4 to 5, with no more live in it. So 4 min
// (or 40% of a shorter run); the slopes are also printed from minute 2, for reference.
const WARMUP_MS = Math.min(240_000, DURATION_MS * 0.4);
// Fewer minutes than this after the warm-up and the slopes are printed but not held to the limit: too short to tell.
const MIN_FIT_MS = 3 * 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
const SCENARIOS = [
  'busy-session',
  'forms-settling',
  'message-paging',
  'oauth-pending-then-complete',
  'oauth-expires',
  'shell-timeout',
];
// The control plane, round robin over the partitions: each is advanced every ~4 s, reset every ~2 min and
// switched every ~2.7 min (every other switch back to `default`, whose ids the valid requests use).
const ADVANCE_EVERY_MS = 500;
const ADVANCE_BY = '10s';
const RESET_EVERY_MS = 15_000;
const SWITCH_EVERY_MS = 20_000;
// One subscriber in RECONNECT_ONE_IN hangs up after 3 to 15 s and subscribes again.
const RECONNECT_ONE_IN = 5;

// ---- load the simulator as bin/session-agent-sim.js does: dist/ when it is current, else the sources via tsx.
const root = new URL('../', import.meta.url);
function distIsCurrent() {
  let compiled;
  try {
    compiled = statSync(new URL('dist/app-exports.js', root)).mtimeMs;
  } catch {
    return false;
  }
  let newest = 0;
  for (const file of readdirSync(new URL('src/', root), { recursive: true })) {
    if (String(file).endsWith('.ts')) newest = Math.max(newest, statSync(new URL(`src/${file}`, root)).mtimeMs);
  }
  return compiled >= newest;
}
const fromDist = distIsCurrent();
const { startServer } = fromDist
  ? await import('../dist/app-exports.js')
  : await tsImport('../src/app-exports.ts', import.meta.url);
const { validRequests } = await tsImport('../test/support/requests.ts', import.meta.url);
const { declaredStatuses, specProblems, eventProblems } = await tsImport(
  '../test/support/spec-validator.ts',
  import.meta.url,
);

// ---- helpers
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const MB = 1024 * 1024;
const mb = (bytes) => Math.round((bytes / MB) * 10) / 10;
function random(seed) {
  // mulberry32: the run's choices are the same from one run to the next.
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(20261123);
const bump = (map, key, by = 1) => (map[key] = (map[key] ?? 0) + by);
const countBy = (list) => list.reduce((acc, key) => (bump(acc, key), acc), {});
/** Least-squares slope of y over x, and its standard error. */
function fit(points) {
  const n = points.length;
  if (n < 3) return { slope: NaN, se: NaN };
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  const slope = sxy / sxx;
  const residuals = points.reduce((s, p) => s + (p.y - my - slope * (p.x - mx)) ** 2, 0);
  return { slope, se: Math.sqrt(residuals / (n - 2) / sxx) };
}

// ---- state of the run
const partitionNames = Array.from({ length: PARTITIONS }, (_, i) => `soak-${i}`);
const operations = Object.entries(validRequests).map(([operationId, r]) => ({
  operationId,
  method: r.method,
  path: r.query ? `${r.path}?${r.query}` : r.path,
  body: r.body === undefined ? undefined : JSON.stringify(r.body),
  declared: new Set(declaredStatuses(operationId)),
}));
const stats = {
  requests: 0,
  byStatus: {},
  byClass: {},
  byOperation: {},
  expected4xx: {},
  keepAliveRetries: 0,
  control: { advances: 0, resets: 0, switches: 0, failed: 0 },
  errors: 0,
  errorKinds: {},
  errorSamples: [],
  subscribers: {
    connections: 0,
    reconnects: 0,
    frames: 0,
    heartbeats: 0,
    bytes: 0,
    disposed: 0,
    endedByServer: 0,
    badFrames: 0,
    frameTypes: {},
  },
};
const logLines = [];
let errLines = 0;
function error(kind, detail) {
  stats.errors++;
  bump(stats.errorKinds, kind);
  if (stats.errorSamples.length < 20) stats.errorSamples.push(`${kind}: ${detail}`);
}

// ---- start
global.gc?.();
await sleep(100);
const handlesBefore = countBy(process.getActiveResourcesInfo());
const started = performance.now();
const sim = await startServer({
  port: 0,
  host: '127.0.0.1',
  scenario: 'default',
  log: (line) => {
    if (line.includes('[err_')) errLines++;
    if (logLines.length < 50) logLines.push(line.split('\n').slice(0, 3).join(' | '));
  },
});
const startupMs = performance.now() - started;
const base = new URL(sim.url);
// fifo: every socket is in use every few tens of ms. With the default lifo the spare ones idle past the server's
// 5 s keep-alive timeout and a request sent as the server closes one meets ECONNRESET (node:http's known race).
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS, scheduling: 'fifo' });
let running = true;
// Ends the control loops' waits at once when the run stops, so no timer outlives it.
const stop = new AbortController();
const pause = (ms) => delay(ms, undefined, { signal: stop.signal }).catch(() => {});

/** One request on the keep-alive agent: status, headers, body text; a connection error or a timeout rejects. */
function send({ method, path, body, partition, prefix }) {
  return new Promise((resolve, reject) => {
    const headers =
      body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    if (!prefix) headers['x-sim-partition'] = partition;
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path: prefix ? `/__partition/${partition}${path}` : path,
        headers,
        agent,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', (e) => reject(Object.assign(e, { reusedSocket: req.reusedSocket })));
    req.end(body);
  });
}

// ---- API traffic: a shared counter walks every (operation, partition) pair; a token bucket caps the rate.
let counter = 0;
let nextSlot = performance.now();
async function client() {
  while (running) {
    if (RATE > 0) {
      const now = performance.now();
      const slot = Math.max(now, nextSlot);
      nextSlot = slot + 1000 / RATE;
      if (slot > now) await sleep(slot - now);
      if (!running) break;
    }
    const n = counter++;
    const op = operations[n % operations.length];
    const partition = partitionNames[Math.floor(n / operations.length) % PARTITIONS];
    const prefix = n % 4 === 3;
    stats.requests++;
    const request = { method: op.method, path: op.path, body: op.body, partition, prefix };
    let res;
    try {
      res = await send(request).catch((e) => {
        // A kept-alive socket the server closed as this request went out: it never read the request, so it is
        // sent again, once, as node:http's documentation advises (counted, not an error).
        if (e.code !== 'ECONNRESET' || !e.reusedSocket) throw e;
        stats.keepAliveRetries++;
        return send(request);
      });
    } catch (e) {
      bump(stats.byClass, 'connection error');
      error('connection', `${op.operationId} ${partition}: ${e.message}`);
      continue;
    }
    bump(stats.byStatus, res.status);
    bump(stats.byClass, `${Math.floor(res.status / 100)}xx`);
    bump(stats.byOperation, op.operationId);
    const problems = [];
    let body;
    try {
      body = res.text === '' ? undefined : JSON.parse(res.text);
    } catch {
      problems.push('body is not JSON');
    }
    const layer = res.headers['x-sim-layer'];
    if (res.status >= 500) problems.push('5xx');
    if (!op.declared.has(res.status)) problems.push('undeclared status');
    if (res.headers['x-sim-operation'] !== op.operationId) problems.push(`routed to ${res.headers['x-sim-operation']}`);
    if (res.headers['x-sim-violations'] !== undefined)
      problems.push(`x-sim-violations ${res.headers['x-sim-violations']}`);
    if (layer === 'validation' || layer === 'simulator') problems.push(`answered by the ${layer} layer`);
    if (problems.length === 0)
      problems.push(
        ...specProblems(op.operationId, res.status, res.status === 204 ? undefined : body, res.headers['content-type']),
      );
    if (problems.length > 0) {
      error(
        'unexpected answer',
        `${op.method} ${op.path} (${partition}) → ${res.status} ${layer}: ${problems.join('; ')} ${res.text.slice(0, 200)}`,
      );
    } else if (res.status >= 400) {
      bump(stats.expected4xx, `${op.operationId} ${res.status} ${body?._tag ?? body?.name}`);
    }
  }
}

// ---- control plane
async function control(kind, partition, method, path, body) {
  try {
    const res = await send({
      method,
      path,
      body: body === undefined ? undefined : JSON.stringify(body),
      partition,
      prefix: false,
    });
    if (res.status !== 200) {
      stats.control.failed++;
      error('control', `${method} ${path} (${partition}) → ${res.status} ${res.text.slice(0, 200)}`);
    } else {
      stats.control[kind]++;
    }
  } catch (e) {
    stats.control.failed++;
    error('control', `${method} ${path} (${partition}): ${e.message}`);
  }
}
const loops = [];
function every(ms, offset, task) {
  loops.push(
    (async () => {
      await pause(offset);
      for (let i = 0; running; i++) {
        const at = performance.now();
        await task(i);
        await pause(Math.max(0, ms - (performance.now() - at)));
      }
    })(),
  );
}
every(ADVANCE_EVERY_MS, 0, (i) =>
  control('advances', partitionNames[i % PARTITIONS], 'POST', '/__sim/clock/advance', { by: ADVANCE_BY }),
);
every(RESET_EVERY_MS, RESET_EVERY_MS / 2, (i) =>
  control('resets', partitionNames[(i * 3) % PARTITIONS], 'POST', '/__sim/reset'),
);
const switches = new Map();
every(SWITCH_EVERY_MS, SWITCH_EVERY_MS / 3, (i) => {
  // Each partition goes to another scenario, then back to default, then to the next other one, …
  const partition = partitionNames[(i * 5 + 1) % PARTITIONS];
  const k = switches.get(partition) ?? 0;
  switches.set(partition, k + 1);
  const name = k % 2 === 0 ? SCENARIOS[(k / 2 + i) % SCENARIOS.length] : 'default';
  return control('switches', partition, 'PUT', '/__sim/scenario', { name });
});

// ---- event-stream subscribers
const subscribers = Array.from({ length: SUBSCRIBERS }, (_, i) => ({
  index: i,
  partition: partitionNames[i % PARTITIONS],
  prefix: i % 2 === 1,
  reconnects: i % RECONNECT_ONE_IN === 0,
  // One subscriber per partition checks every frame against the spec's V2Event.
  checks: i < PARTITIONS,
  hangUp: undefined,
  hangUpTimer: undefined,
  retryTimer: undefined,
  open: false,
}));
function subscribe(sub) {
  if (!running) return;
  const path = sub.prefix ? `/__partition/${sub.partition}/api/event` : '/api/event';
  const headers = sub.prefix ? {} : { 'x-sim-partition': sub.partition };
  let hungUp = false;
  let pending = '';
  let first = true;
  const req = http.get({ host: base.hostname, port: base.port, path, headers, agent: false }, (res) => {
    if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('text/event-stream')) {
      error('subscribe', `${sub.partition} → ${res.statusCode} ${res.headers['content-type']}`);
    }
    sub.open = true;
    stats.subscribers.connections++;
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      stats.subscribers.bytes += chunk.length;
      pending += chunk;
      let end;
      while ((end = pending.indexOf('\n\n')) >= 0) {
        const frame = pending.slice(0, end);
        pending = pending.slice(end + 2);
        if (frame.startsWith(':')) {
          stats.subscribers.heartbeats++;
          continue;
        }
        let event;
        try {
          if (!frame.startsWith('data: ')) throw new Error('not a data frame');
          event = JSON.parse(frame.slice('data: '.length));
        } catch {
          stats.subscribers.badFrames++;
          error('event frame', `${sub.partition}: not a data frame: ${frame.slice(0, 120)}`);
          continue;
        }
        stats.subscribers.frames++;
        bump(stats.subscribers.frameTypes, event.type);
        if (event.type === 'global.disposed') stats.subscribers.disposed++;
        if (first && event.type !== 'server.connected')
          error('event frame', `${sub.partition}: first frame is ${event.type}`);
        first = false;
        if (sub.checks) {
          const problems = eventProblems(event);
          if (problems.length) error('event frame', `${sub.partition} ${event.type}: ${problems.join('; ')}`);
        }
      }
    });
    res.on('error', () => {}); // an end the 'close' below accounts for
    res.on('close', () => {
      sub.open = false;
      if (hungUp || !running) return;
      // The simulator ended the stream (it drops a subscriber more than 256 frames behind): subscribe again.
      stats.subscribers.endedByServer++;
      again(200);
    });
  });
  req.on('error', (e) => {
    if (hungUp || !running) return;
    error('subscribe', `${sub.partition}: ${e.message}`);
    again(1000);
  });
  let retried = false;
  const again = (ms) => {
    if (retried) return;
    retried = true;
    clearTimeout(sub.hangUpTimer);
    sub.retryTimer = setTimeout(() => subscribe(sub), ms);
  };
  sub.hangUp = () => {
    hungUp = true;
    req.destroy();
  };
  if (sub.reconnects) {
    sub.hangUpTimer = setTimeout(
      () => {
        sub.hangUp();
        stats.subscribers.reconnects++;
        sub.retryTimer = setTimeout(() => subscribe(sub), 50 + rand() * 450);
      },
      3000 + rand() * 12_000,
    );
  }
}
for (const sub of subscribers) subscribe(sub);
const workers = Array.from({ length: CLIENTS }, () => client());

// ---- sampling
const simStats = () => {
  const list = sim.app.sim.partitions.list();
  return {
    partitions: list.length,
    subscribersInSim: list.reduce((s, p) => s + p.events.subscribers, 0),
    droppedBySim: list.reduce((s, p) => s + p.events.dropped, 0),
    logSeq: list.reduce((s, p) => s + p.log.lastSeq, 0),
  };
};
const samples = [];
/** Committed size of V8's heap spaces: where RSS that is not live heap sits. */
const spaces = () =>
  Object.fromEntries(
    v8
      .getHeapSpaceStatistics()
      .filter((s) => s.space_size > MB)
      .map((s) => [s.space_name.replace(/_space$/, ''), mb(s.space_size)]),
  );
let lastRequests = 0;
function sample() {
  global.gc?.();
  const m = process.memoryUsage();
  const t = performance.now() - started;
  const s = {
    t: Math.round(t / 1000),
    rss: mb(m.rss),
    heapUsed: mb(m.heapUsed),
    heapTotal: mb(m.heapTotal),
    external: mb(m.external),
    native: mb(m.rss - m.heapTotal),
    ...spaces(),
    requests: stats.requests,
    ...simStats(),
  };
  samples.push(s);
  const rps = Math.round(
    (stats.requests - lastRequests) / (samples.length > 1 ? s.t - samples[samples.length - 2].t : Math.max(1, s.t)),
  );
  lastRequests = stats.requests;
  const open = subscribers.filter((x) => x.open).length;
  console.log(
    `${String(s.t).padStart(4)} s  rss ${s.rss.toFixed(1)} MB  heap ${s.heapUsed.toFixed(1)} MB  ${String(rps).padStart(4)} req/s  ` +
      `requests ${s.requests}  frames ${stats.subscribers.frames}  open streams ${open} (sim ${s.subscribersInSim})  errors ${stats.errors + errLines}`,
  );
}
console.log(
  `soak: ${MINUTES} min, ${CLIENTS} clients (cap ${RATE || '∞'} req/s), ${PARTITIONS} partitions, ${SUBSCRIBERS} subscribers; simulator from ${fromDist ? 'dist/' : 'src/ (tsx)'} at ${sim.url}, up in ${Math.round(startupMs)} ms; gc ${global.gc ? 'forced before each sample' : 'not exposed (run with --expose-gc)'}`,
);
sample();
const sampler = setInterval(sample, INTERVAL_MS);
await sleep(DURATION_MS);
clearInterval(sampler);
sample();
const elapsedS = (performance.now() - started - startupMs) / 1000;

// ---- wind down: clients finish what they sent, subscribers hang up, the simulator closes
running = false;
stop.abort();
await Promise.all([...workers, ...loops]);
const beforeClose = simStats();
for (const sub of subscribers) {
  clearTimeout(sub.hangUpTimer);
  clearTimeout(sub.retryTimer);
  sub.hangUp?.();
}
await sleep(500);
const subscribersLeft = simStats().subscribersInSim;
agent.destroy();
await sim.close();
await sleep(1000);
global.gc?.();
await sleep(100);
const handlesAfter = countBy(process.getActiveResourcesInfo());
const handleDiff = {};
for (const type of new Set([...Object.keys(handlesBefore), ...Object.keys(handlesAfter)])) {
  const d = (handlesAfter[type] ?? 0) - (handlesBefore[type] ?? 0);
  if (d !== 0) handleDiff[type] = d;
}

// ---- figures
// Slopes in MB/min of: RSS; the live heap (heapUsed after a full GC); RSS outside V8's heap (rss - heapTotal:
// buffers, sockets, malloc, code) — a leak shows in the first and in one of the other two.
const MEASURES = { rss: 'RSS', heapUsed: 'heapUsed', native: 'rss - heapTotal', heapTotal: 'heapTotal' };
const slopesFrom = (ms) => {
  const window = samples.filter((s) => s.t * 1000 >= ms);
  return {
    from: ms / 1000,
    samples: window.length,
    ...Object.fromEntries(Object.keys(MEASURES).map((k) => [k, fit(window.map((s) => ({ x: s.t / 60, y: s[k] })))])),
  };
};
const settled = slopesFrom(WARMUP_MS);
const early = slopesFrom(Math.min(120_000, WARMUP_MS));
const slopeGated = DURATION_MS - WARMUP_MS >= MIN_FIT_MS;
// Without a forced GC heapUsed is where the last collection left it: only RSS figures are held to a limit then.
const LIMITS = { rss: MAX_RSS_SLOPE, native: MAX_RSS_SLOPE, ...(global.gc ? { heapUsed: MAX_SLOPE } : {}) };
const rss = samples.map((s) => s.rss);
const failures = [];
if (stats.errors > 0) failures.push(`${stats.errors} errors`);
if (errLines > 0) failures.push(`${errLines} [err_…] log lines`);
if (Object.keys(handleDiff).length > 0) failures.push(`handles differ: ${JSON.stringify(handleDiff)}`);
if (subscribersLeft !== 0)
  failures.push(`${subscribersLeft} subscribers still held by the simulator after every client hung up`);
for (const [k, limit] of slopeGated ? Object.entries(LIMITS) : []) {
  if (!(settled[k].slope <= limit))
    failures.push(`${MEASURES[k]} slope ${settled[k].slope.toFixed(2)} MB/min > ${limit}`);
}

const round3 = (x) => Math.round(x * 1000) / 1000;
const slopesJson = (w) => ({
  fromS: w.from,
  samples: w.samples,
  ...Object.fromEntries(Object.keys(MEASURES).map((k) => [k, { slope: round3(w[k].slope), stdErr: round3(w[k].se) }])),
});
const slopesText = (w) =>
  Object.keys(MEASURES)
    .map((k) => `${MEASURES[k]} ${w[k].slope.toFixed(3)} ± ${w[k].se.toFixed(3)}`)
    .join(', ');
const summary = {
  date: new Date().toISOString(),
  node: process.version,
  simulator: fromDist ? 'dist' : 'src (tsx)',
  config: {
    minutes: MINUTES,
    intervalS: INTERVAL_MS / 1000,
    clients: CLIENTS,
    rateCap: RATE,
    partitions: PARTITIONS,
    subscribers: SUBSCRIBERS,
    warmupS: WARMUP_MS / 1000,
    maxSlopeMBPerMin: LIMITS,
    gc: Boolean(global.gc),
  },
  requests: {
    total: stats.requests,
    keepAliveRetries: stats.keepAliveRetries,
    perSecond: Math.round(stats.requests / elapsedS),
    byClass: stats.byClass,
    byStatus: stats.byStatus,
    operations: Object.keys(stats.byOperation).length,
    expected4xx: stats.expected4xx,
  },
  control: stats.control,
  subscribers: { ...stats.subscribers, droppedBySim: beforeClose.droppedBySim, heldBySimAfterHangUp: subscribersLeft },
  errors: {
    total: stats.errors,
    kinds: stats.errorKinds,
    samples: stats.errorSamples,
    errLogLines: errLines,
    log: logLines,
  },
  memory: {
    rssStart: rss[0],
    rssEnd: rss[rss.length - 1],
    rssMin: Math.min(...rss),
    rssMax: Math.max(...rss),
    heapStart: samples[0].heapUsed,
    heapEnd: samples[samples.length - 1].heapUsed,
    slopeAfterWarmupMBPerMin: slopesJson(settled),
    slopeFromMinute2MBPerMin: slopesJson(early),
    slopeGated,
  },
  handles: { before: handlesBefore, after: handlesAfter, diff: handleDiff },
  samples,
  failures,
  pass: failures.length === 0,
};

const line = (k, v) => console.log(`${k.padEnd(22)} ${v}`);
console.log('');
line(
  'duration',
  `${elapsedS.toFixed(0)} s (warm-up ${WARMUP_MS / 1000} s), simulator up in ${Math.round(startupMs)} ms`,
);
line(
  'requests',
  `${stats.requests} (${summary.requests.perSecond}/s) over ${summary.requests.operations} operations × ${PARTITIONS} partitions; ${stats.keepAliveRetries} resent after a keep-alive race`,
);
line('by class', JSON.stringify(stats.byClass));
line('by status', JSON.stringify(stats.byStatus));
line(
  'expected 4xx',
  Object.entries(stats.expected4xx)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ×${v}`)
    .join(', ') || 'none',
);
line(
  'control',
  `${stats.control.advances} advances (by ${ADVANCE_BY}), ${stats.control.resets} resets, ${stats.control.switches} scenario switches, ${stats.control.failed} failed`,
);
line(
  'subscribers',
  `${SUBSCRIBERS} (${stats.subscribers.connections} connections, ${stats.subscribers.reconnects} hang-ups and resubscriptions, ${stats.subscribers.endedByServer} ended by the simulator, ${beforeClose.droppedBySim} dropped as slow)`,
);
line(
  'frames',
  `${stats.subscribers.frames} events (${stats.subscribers.disposed} global.disposed), ${stats.subscribers.heartbeats} heartbeats, ${mb(stats.subscribers.bytes)} MB`,
);
line(
  'RSS',
  `start ${rss[0]} MB, end ${rss[rss.length - 1]} MB, min ${Math.min(...rss)} MB, max ${Math.max(...rss)} MB`,
);
line(
  `slope from ${settled.from} s`,
  `${slopesText(settled)} MB/min (least squares ± std. error, ${settled.samples} samples; ` +
    (slopeGated
      ? `limits ${Object.entries(LIMITS)
          .map(([k, v]) => `${MEASURES[k]} ${v}`)
          .join(', ')} MB/min)`
      : `not held to the limits: under ${MIN_FIT_MS / 60_000} min after the warm-up)`),
);
if (early.from !== settled.from)
  line(`slope from ${early.from} s`, `${slopesText(early)} MB/min (${early.samples} samples; for reference)`);
line(
  'handles',
  `before ${JSON.stringify(handlesBefore)}, after ${JSON.stringify(handlesAfter)}, diff ${JSON.stringify(handleDiff)}`,
);
line(
  'errors',
  `${stats.errors} ${JSON.stringify(stats.errorKinds)}; [err_] log lines ${errLines}; log lines ${logLines.length}`,
);
for (const s of stats.errorSamples) console.log(`  ${s}`);
for (const l of logLines.slice(0, 10)) console.log(`  log: ${l}`);
line('result', failures.length === 0 ? 'PASS' : `FAIL: ${failures.join('; ')}`);
if (opts.json) writeFileSync(opts.json, `${JSON.stringify(summary, null, 2)}\n`);
else console.log(JSON.stringify(summary));
process.exitCode = failures.length === 0 ? 0 : 1;
