// What the measures share: spawning the CLI as a user runs it (and always ending it), polling for its first
// answer, reading its memory from /proc, percentiles, and a watchdog that turns a hang into a failed row.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../../bin/session-agent-sim.js', import.meta.url));
/** A shell of the default scenario; the examples answer the same id with `--scenario none`. */
export const SHELL_ID = 'sh_203a7e5c7001OpQrStUvWxYzAb';
export const SHELL_PATH = `/api/shell/${SHELL_ID}`;
export const SESSION_ID = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
export const NO_TARGET = 'report only';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Every child still alive when this process goes away is killed, whatever way it goes (an uncaught error,
// process.exit from a caller): a benchmark must never leave a server listening.
const live = new Set();
const killAll = () => {
  for (const child of live) child.kill('SIGKILL');
};
process.once('exit', killAll);
// A signal ends Node without 'exit' handlers, and SIGTERM (a runner's timeout) reaches this process alone.
// Where nobody else handles the signal, it is raised again afterwards so this process still ends as it would have.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, function onSignal() {
    killAll();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}

/**
 * Which code bin/ will run: it falls back to the sources through tsx when dist/ is older than src/, which
 * starts far slower, so a figure taken that way must say so.
 */
export function runtimeNote() {
  let compiled;
  try {
    compiled = statSync(new URL('dist/cli.js', pathToFileURL(ROOT))).mtimeMs;
  } catch {
    return 'dist/ missing';
  }
  let newest = 0;
  try {
    for (const file of readdirSync(new URL('src/', pathToFileURL(ROOT)), { recursive: true })) {
      if (String(file).endsWith('.ts'))
        newest = Math.max(newest, statSync(new URL(`src/${file}`, pathToFileURL(ROOT))).mtimeMs);
    }
  } catch {
    return 'dist/';
  }
  return compiled >= newest ? 'dist/' : 'src/ through tsx (dist/ older than src/: run npm run build)';
}

/** What else the figures depend on: the code the CLI runs, and how busy the two cores were to begin with. */
export function contextNote() {
  return `CLI ran ${runtimeNote()}; 1-min load average ${loadavg()[0].toFixed(2)} at the start`;
}

/** A port nobody listens on now; the child reports EADDRINUSE (and we see it exit) if one takes it meanwhile. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1]);
  return { rssKiB: kib('VmRSS'), hwmKiB: kib('VmHWM') };
}

/**
 * Node flags that let a running CLI be asked for a diagnostic report (V8 heap figures) on SIGUSR2, without
 * touching its code; with heapReport() below. RSS alone hides growth that lands in heap pages already committed.
 */
export function reportFlags(scope) {
  const dir = mkdtempSync(join(tmpdir(), 'sim-measure-report-'));
  scope.onClose(() => rmSync(dir, { recursive: true, force: true }));
  // A report lists the environment; the child gets only what running needs, so no secret of ours lands on disk.
  const env = Object.fromEntries(
    ['PATH', 'HOME', 'LANG', 'TMPDIR'].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]),
  );
  return {
    dir,
    env,
    nodeArgs: [
      '--report-on-signal',
      '--report-signal=SIGUSR2',
      `--report-directory=${dir}`,
      '--report-compact',
      '--report-exclude-network',
    ],
  };
}

/** V8's heap in use (garbage not yet collected included) and committed, in KiB, from a report the child writes. */
export async function heapReport(sim, dir) {
  const seen = new Set(readdirSync(dir));
  sim.child.kill('SIGUSR2');
  const deadline = performance.now() + 5000;
  while (performance.now() < deadline) {
    const file = readdirSync(dir).find((f) => !seen.has(f) && f.endsWith('.json'));
    if (file) {
      try {
        const { javascriptHeap } = JSON.parse(readFileSync(join(dir, file), 'utf8'));
        rmSync(join(dir, file), { force: true });
        return { usedKiB: javascriptHeap.usedMemory / 1024, totalKiB: javascriptHeap.totalMemory / 1024 };
      } catch {
        // still being written
      }
    }
    await sleep(20);
  }
  return undefined;
}

/** CPU time (user + system) a process has used, in ms; the kernel counts in ticks of 1/100 s. */
export function procCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces; the fields after it do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * How much of the machine processes other than this one and its children used from now until the returned
 * function is called (after the children have ended, so their CPU time is counted as this process's), and
 * how much the hypervisor took (steal): shares of all cores, 0 to 1. Another benchmark running meanwhile, or
 * a busy host, shows here instead of silently in the figures.
 */
export function othersMeter() {
  const machine = () => {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal: work is all but idle, iowait and steal.
    return { busy: (ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]) * 10, steal: ticks[7] * 10 };
  };
  const oursMs = () => {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, and the same for children already waited for.
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
  };
  try {
    const start = { at: performance.now(), ...machine(), ours: oursMs() };
    return () => {
      const capacity = (performance.now() - start.at) * availableParallelism();
      const now = machine();
      const others = now.busy - start.busy - (oursMs() - start.ours);
      return { others: Math.max(0, others) / capacity, steal: (now.steal - start.steal) / capacity };
    };
  } catch {
    return () => undefined;
  }
}

export const mib = (kib) => kib / 1024;
export const round = (x, digits = 0) => Number(x.toFixed(digits));

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function median(values) {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/**
 * One GET on a fresh connection: polling with a keep-alive agent or fetch would reuse state across
 * attempts and cost more than the refused connect it mostly is.
 */
export function probe(port, path, { headers, timeoutMs = 10_000 } = {}) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve(undefined));
    });
    req.setTimeout(timeoutMs, () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * How a measure calls the simulator's JSON API: each call checks the measure is still running, sends its
 * body as JSON and answers the parsed body, or throws naming the call when the status is another.
 */
export function jsonCaller(scope, port, agent) {
  return async (label, path, { method = 'GET', body, status = 200 } = {}) => {
    scope.check();
    const answer = await request(port, path, {
      method,
      headers: body === undefined ? undefined : JSON_HEADERS,
      body: body === undefined ? undefined : JSON.stringify(body),
      agent,
    });
    if (answer.status !== status)
      throw new Error(`${label}: ${method} ${path} answered ${answer.status} ${answer.body.slice(0, 160)}`);
    return answer.body === '' ? undefined : JSON.parse(answer.body);
  };
}

/** A request on a given agent, its body read whole. */
export function request(port, path, { method = 'GET', headers, body, agent } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path}: no answer within 10 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The bounded life of one measure: the children it spawned and what it opened, all ended by close(), and
 * an abort flag its loops check so a measure the watchdog gave up on stops instead of carrying on.
 */
export class Scope {
  constructor() {
    this.rows = [];
    /** child → its stop(), for what the measure did not stop itself. */
    this.children = new Map();
    this.cleanups = [];
    this.aborted = undefined;
  }

  check() {
    if (this.aborted) throw this.aborted;
  }

  onClose(fn) {
    this.cleanups.push(fn);
  }

  report(row) {
    if (!this.aborted) this.rows.push(row);
  }

  /** Spawns the CLI (`node [nodeArgs] bin/session-agent-sim.js ...args`); stderr's tail is kept for the reason of a failure. */
  spawnSim(args, { nodeArgs = [], env = process.env } = {}) {
    this.check();
    const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    live.add(child);
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => {
      stderr = (stderr + text).slice(-2000);
    });
    let exitCode;
    const exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        exitCode = code ?? signal;
        live.delete(child);
        resolve();
      });
      child.once('error', (error) => {
        stderr += String(error);
        exitCode = 'spawn error';
        live.delete(child);
        resolve();
      });
    });
    const sim = {
      child,
      get pid() {
        return child.pid;
      },
      get exitCode() {
        return exitCode;
      },
      stderrTail: () => stderr.trim().split('\n').slice(-3).join(' | '),
      stop: async () => {
        this.children.delete(child);
        await stopChild(child, exited, () => exitCode !== undefined);
      },
      /** Throws with the child's own words when it has died. */
      assertAlive: () => {
        if (exitCode !== undefined)
          throw new Error(`the simulator exited (${exitCode}): ${sim.stderrTail() || 'no stderr'}`);
      },
    };
    this.children.set(child, sim.stop);
    return sim;
  }

  /**
   * Polls `path` every `intervalMs` until a 2xx; returns the ms from `since` to the end of that answer,
   * plus any non-2xx seen on the way (a failure for the caller to report).
   */
  async firstAnswer(sim, port, path, { since, intervalMs = 5, timeoutMs = 20_000, expect } = {}) {
    const deadline = since + timeoutMs;
    const refused = [];
    for (;;) {
      this.check();
      sim.assertAlive();
      const answer = await probe(port, path, { timeoutMs: Math.max(1, deadline - performance.now()) });
      const at = performance.now();
      if (answer && answer.status >= 200 && answer.status < 300) {
        if (expect && !answer.body.includes(expect))
          throw new Error(`GET ${path} answered ${answer.status} without "${expect}": ${answer.body.slice(0, 200)}`);
        return { ms: at - since, refused };
      }
      if (answer) refused.push(answer.status);
      if (at > deadline)
        throw new Error(
          `no 2xx to GET ${path} within ${timeoutMs / 1000} s${refused.length ? ` (answers: ${[...new Set(refused)].join(', ')})` : ''}`,
        );
      await sleep(intervalMs);
    }
  }

  async close() {
    for (const fn of this.cleanups.splice(0).reverse()) {
      try {
        await fn();
      } catch {
        // ending what is left matters more than why one thing would not end
      }
    }
    await Promise.all([...this.children.values()].map((stop) => stop()));
  }
}

async function stopChild(child, exited, hasExited) {
  if (hasExited()) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

export function row(name, value, unit, target, met, detail) {
  return { name, value, unit, target, met, detail };
}

/**
 * Runs one measure under a watchdog. `expected` lists the rows it should report ({name, unit, target}); any
 * it did not report (an error, the watchdog) comes back as met: false with the reason, so a caller always
 * gets every row and never waits past `timeoutMs`.
 */
export async function guarded({ timeoutMs, expected }, body) {
  const scope = new Scope();
  const others = othersMeter();
  let timer;
  const watchdog = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ error: new Error(`watchdog: gave up after ${timeoutMs / 1000} s`) }), timeoutMs);
  });
  const outcome = await Promise.race([
    body(scope).then(
      () => ({}),
      (error) => ({ error }),
    ),
    watchdog,
  ]);
  clearTimeout(timer);
  const rows = [...scope.rows];
  scope.aborted = outcome.error ?? new Error('measure finished');
  await scope.close();
  const share = others();
  if (share) {
    const disturbed = share.others + share.steal > 0.1 ? ' (figures disturbed)' : '';
    const note = `; during this measure other processes used ${Math.round(share.others * 100)}% and the hypervisor stole ${Math.round(share.steal * 100)}% of the ${availableParallelism()} cores${disturbed}`;
    for (const r of rows) r.detail += note;
  }
  for (const want of expected) {
    if (rows.some((r) => r.name === want.name)) continue;
    const reason = outcome.error ? String(outcome.error.message ?? outcome.error) : 'not reported by the measure';
    rows.push(row(want.name, NaN, want.unit, want.target, false, `failed: ${reason}`));
  }
  return expected
    .map((want) => rows.find((r) => r.name === want.name))
    .concat(rows.filter((r) => !expected.some((want) => want.name === r.name)));
}

/** `node bench/suite/measures/X.mjs [--quick]` runs that measure alone and prints its rows. */
export async function runIfMain(moduleUrl, measure) {
  if (!process.argv[1] || pathToFileURL(process.argv[1]).href !== moduleUrl) return;
  const started = performance.now();
  const rows = await measure({ quick: process.argv.includes('--quick') });
  console.table(rows.map((r) => ({ name: r.name, value: r.value, unit: r.unit, target: r.target, met: r.met })));
  for (const r of rows) console.log(`${r.met ? 'met ' : 'MISS'} ${r.name}: ${r.detail}`);
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
  process.exitCode = rows.every((r) => r.met) ? 0 : 1;
}

/**
 * Runs `step` `warm` times unmeasured (start-up: code paths compiled, a scenario's first minutes played), then
 * `count` times measured, one after another, each until one fails; a failure is added to `failures` and ends
 * the run. Gives the measured steps' results, the wall time and the simulator's CPU over them, and adds a line
 * to `failures` when fewer than `count` ran. `unit` and `units` name the steps in those lines (`cycle`, `echo`).
 */
export async function warmThenMeasure({
  warm,
  count,
  step,
  sim,
  failures,
  unit,
  units = `${unit}s`,
  check = () => {},
}) {
  for (let i = 0; i < warm && failures.length === 0; i++) {
    try {
      await step(-1 - i);
    } catch (error) {
      failures.push(`warm-up ${i + 1}: ${error.message}`);
    }
  }
  const results = [];
  const simCpuBefore = procCpuMs(sim.pid);
  const started = performance.now();
  for (let i = 0; i < count && failures.length === 0; i++) {
    check();
    try {
      results.push(await step(i + 1));
    } catch (error) {
      failures.push(`${unit} ${i + 1}: ${error.message}`);
    }
  }
  const wallMs = performance.now() - started;
  const simCpuMs = procCpuMs(sim.pid) - simCpuBefore;
  sim.assertAlive();
  if (results.length < count) failures.push(`stopped after ${results.length} of ${count} ${units}`);
  return { results, wallMs, simCpuMs };
}
