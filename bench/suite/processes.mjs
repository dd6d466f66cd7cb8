// Every process the suite starts goes through here, so none outlives the run: each child leads its own
// process group (Prism, WireMock or the real server may fork helpers of their own), and the group is ended
// on a normal finish, on a failure, on Ctrl-C and, as a last resort, synchronously on exit.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const children = new Set();
let handlersInstalled = false;

function killGroup(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

export function installExitHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  // 'exit' handlers cannot wait: SIGKILL is the only signal that is sure to end the group in time.
  process.on('exit', () => {
    for (const child of children) killGroup(child, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      process.stderr.write(`\n${signal}: stopping ${children.size} target process(es)\n`);
      for (const child of children) killGroup(child, 'SIGKILL');
      process.exit(130);
    });
  }
}

/**
 * Starts a target. Its output goes to a log file rather than a pipe: draining a pipe would cost this process
 * (the load generator) CPU, and a full pipe would stall the target.
 */
export function start({ command, args, cwd, env, logFile }) {
  const fd = openSync(logFile, 'a');
  let child;
  try {
    child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd], detached: true });
  } finally {
    closeSync(fd);
  }
  children.add(child);
  child.once('exit', () => children.delete(child));
  // A spawn failure (missing binary) surfaces as an exit the readiness wait reports.
  child.on('error', () => {});
  return child;
}

export async function stop(child, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) {
    children.delete(child);
    return;
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  // Helpers the target forked may ignore SIGTERM after their leader is gone.
  killGroup(child, 'SIGKILL');
  children.delete(child);
}

export async function stopAll() {
  await Promise.all([...children].map((child) => stop(child)));
}

export function running() {
  return children.size;
}

/** A port nobody listens on right now; the target binds it a moment later. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Milliseconds from `startedAt` until `probe` answers 2xx. Each attempt has its own timeout: the real server
 * can hold its very first request for a minute while it boots, and a retry gets through.
 */
export async function waitForAnswer(child, probe, { startedAt, deadlineMs = 60_000, attemptMs = 2000 }) {
  const deadline = startedAt + deadlineMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`exited (${child.exitCode ?? child.signalCode}) before answering`);
    try {
      const res = await fetch(probe.url, {
        method: probe.method,
        headers: probe.headers,
        body: probe.body,
        signal: AbortSignal.timeout(attemptMs),
      });
      await res.arrayBuffer();
      if (res.ok) return performance.now() - startedAt;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = error.cause?.code ?? error.name ?? String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no 2xx answer within ${Math.round(deadlineMs / 1000)} s (last: ${last})`);
}

/** Peak resident set (VmHWM) of a live process, in MiB; undefined once it has exited. */
export function peakRssMiB(pid) {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export function logTail(file, bytes = 1500) {
  try {
    const text = readFileSync(file, 'utf8');
    return text.slice(-bytes).trim();
  } catch {
    return '';
  }
}

/**
 * Where the machine's CPU went, in clock ticks (1/100 s): per process group (each target leads its own, so a
 * group counts a target's helpers too), this runner, the whole machine busy, and time the hypervisor stole.
 * Comparing two snapshots tells a cell's load from its neighbours' and from processes outside the benchmark.
 */
export function cpuSnapshot() {
  const groups = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // After the command name (which may hold spaces): state, ppid, pgrp, … utime and stime are 12th and 13th.
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ');
      const pgrp = Number(fields[2]);
      groups.set(pgrp, (groups.get(pgrp) ?? 0) + Number(fields[11]) + Number(fields[12]));
    } catch {
      // exited while we looked
    }
  }
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal
  const [user, nice, system, , , irq, softirq, steal] = cpu;
  const usage = process.cpuUsage();
  return { groups, busy: user + nice + system + irq + softirq, steal, self: (usage.user + usage.system) / 10_000 };
}
