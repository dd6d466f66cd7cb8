// npm run bench: the throughput matrix (the simulator beside bare node:http, bare Express, Prism, WireMock,
// talkback, mockttp and its own upstream, all started up front as separate processes and measured in interleaved
// rounds), then the measures (bench/suite/measures), written to bench/results.md.
// Flags: --duration S (5) --rounds N (3) --connections N (50) --only TEXT --quick --no-measures
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { captureFixtures } from './suite/fixtures.mjs';
import { answerOf, cpuTicks, difference, runLoad, sameAnswer, sampleRequests, waitIdle } from './suite/load.mjs';
import {
  cpuSnapshot,
  freePort,
  installExitHandlers,
  logTail,
  peakRssMiB,
  start,
  stop,
  stopAll,
  waitForAnswer,
} from './suite/processes.mjs';
import { formatMs, formatRps, writeReport } from './suite/report.mjs';
import { judge, ratio, summarise } from './suite/stats.mjs';
import { TARGET_BY_ID, TARGETS } from './suite/targets.mjs';
import { CRITERIA, roundOrder, WORKLOADS } from './suite/workloads.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const began = performance.now();

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string' },
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    'no-measures': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (flags.help) {
  process.stdout.write(
    'Usage: npm run bench -- [--duration S=5] [--rounds N=3] [--connections N=50] [--only TEXT] [--quick] [--no-measures]\n',
  );
  process.exit(0);
}

function positive(name, value, fallback) {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) {
    process.stderr.write(`--${name} must be a positive number, got "${value}"\n`);
    process.exit(2);
  }
  return number;
}
const duration = positive('duration', flags.duration, flags.quick ? 2 : 5);
const rounds = Math.round(positive('rounds', flags.rounds, flags.quick ? 1 : 3));
const connections = Math.round(positive('connections', flags.connections, 50));
const only = flags.only?.toLowerCase();
const WARMUP_S = 1;

const clock = () => {
  const s = Math.round((performance.now() - began) / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};
const say = (line) => process.stderr.write(`[${clock()}] ${line}\n`);

process.chdir(root);
installExitHandlers();

/** The simulator's CLI runs src/ through tsx when dist/ is older, while sim embedded imports dist/: rebuild so both run the same code. */
function ensureFreshDist() {
  let built = 0;
  try {
    built = statSync('dist/cli.js').mtimeMs;
  } catch {
    // missing: build
  }
  const newest = Math.max(
    0,
    ...readdirSync('src', { recursive: true })
      .filter((f) => String(f).endsWith('.ts'))
      .map((f) => statSync(join('src', String(f))).mtimeMs),
  );
  if (built >= newest) return false;
  say('dist/ is older than src/: npm run build');
  const result = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error('npm run build failed');
  return true;
}

function git(...args) {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

function machineLine() {
  const commit = git('rev-parse', '--short', 'HEAD') || 'unknown';
  // --no-optional-locks: a plain status may rewrite the index, and this run must not touch the repository.
  const dirty = git('--no-optional-locks', 'status', '--porcelain', '--untracked-files=no') !== '';
  const cpu = cpus();
  return `${cpu[0]?.model?.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${new Date().toISOString()}, commit ${commit}${dirty ? ' with uncommitted changes' : ''}`;
}

function commandLine() {
  const args = process.argv.slice(2).join(' ');
  if (process.env.npm_lifecycle_event === 'bench') return `npm run bench${args ? ` -- ${args}` : ''}`;
  return `node bench/run.mjs${args ? ` ${args}` : ''}`;
}

// ---- which cells run

const notes = [];
const skipped = [];
let rebuilds = 0;
try {
  if (ensureFreshDist()) rebuilds++;
} catch (error) {
  say(
    `${error.message}: src/ does not compile right now, and the benchmark measures the compiled dist/ (the CLI would run src/ through tsx, sim embedded an older dist/)`,
  );
  process.exit(1);
}

const selected = new Map();
for (const workload of WORKLOADS) {
  const byWorkload = !only || workload.id.toLowerCase().includes(only) || workload.name.toLowerCase().includes(only);
  const targets = workload.targets.filter((id) => byWorkload || TARGET_BY_ID.get(id).name.toLowerCase().includes(only));
  if (targets.length) selected.set(workload.id, targets);
}
if (!selected.size) {
  say(`--only "${flags.only}" matches no workload or target`);
  process.exit(2);
}

// A bare server needs its workload's source simulator for the bytes it sends; a recorder needs its upstream.
const needed = new Set();
const include = (id) => {
  if (needed.has(id)) return;
  for (const dep of TARGET_BY_ID.get(id).needs ?? []) include(dep);
  needed.add(id);
};
for (const [id, targets] of selected) {
  const workload = WORKLOADS.find((w) => w.id === id);
  for (const target of targets) {
    if (TARGET_BY_ID.get(target).fixtures && workload.source) include(workload.source);
    include(target);
  }
}

const unavailable = new Map();
for (const id of needed) {
  const why = TARGET_BY_ID.get(id).available?.();
  if (why) unavailable.set(id, why);
}
for (const [id, why] of unavailable) skipped.push(`${TARGET_BY_ID.get(id).name}: skipped, ${why}.`);

const ctx = { root, tmp: mkdtempSync(join(tmpdir(), 'sim-bench-')), files: {}, ports: {}, fixtures: {} };
process.on('exit', () => rmSync(ctx.tmp, { recursive: true, force: true }));

// ---- start everything up front

const processes = new Map();

function probeFor(id) {
  const workload =
    WORKLOADS.find((w) => w.targets.includes(id) && (selected.get(w.id)?.includes(id) ?? false)) ??
    WORKLOADS.find((w) => w.targets.includes(id) || w.source === id);
  const request = workload.rotate ? workload.rotate.sample[0] : workload.requests[0];
  return {
    url: `http://127.0.0.1:${ctx.ports[id]}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: request.body,
  };
}

async function startTarget(id) {
  const target = TARGET_BY_ID.get(id);
  const entry = { id, name: target.name, status: 'not started' };
  processes.set(id, entry);
  if (unavailable.has(id)) {
    entry.status = `skipped: ${unavailable.get(id)}`;
    return;
  }
  const missing = (target.needs ?? []).filter((dep) => !processes.get(dep)?.child);
  if (missing.length) {
    entry.status = `not started: ${missing.map((dep) => TARGET_BY_ID.get(dep).name).join(', ')} did not start`;
    return;
  }
  try {
    if (target.prepare) {
      const t = performance.now();
      await target.prepare(ctx);
      const took = performance.now() - t;
      if (took > 1000) say(`${target.name}: prepared its files in ${(took / 1000).toFixed(1)} s`);
    }
    ctx.ports[id] = await freePort();
    const spec = target.start(ctx, ctx.ports[id]);
    // src/ may be edited while targets start: each simulator should run freshly compiled code, not tsx.
    if (
      spec.args.some((arg) => arg.includes('session-agent-sim.js') || arg.includes('sim-embedded.mjs')) &&
      ensureFreshDist()
    )
      rebuilds++;
    const command = spec.command.includes('/') && !isAbsolute(spec.command) ? join(root, spec.command) : spec.command;
    const logFile = join(ctx.tmp, `${id}.log`);
    const startedAt = performance.now();
    const child = start({ command, args: spec.args, cwd: spec.cwd ?? root, env: spec.env, logFile });
    entry.pid = child.pid;
    try {
      entry.startupMs = await waitForAnswer(child, probeFor(id), {
        startedAt,
        deadlineMs: target.deadlineMs ?? 60_000,
      });
    } catch (error) {
      const tail = logTail(logFile);
      await stop(child);
      throw new Error(`${error.message}${tail ? `; its log ends: ${tail}` : ''}`, { cause: error });
    }
    entry.child = child;
    entry.status = 'ok';
    say(`started ${target.name} (PID ${child.pid}, port ${ctx.ports[id]}) in ${Math.round(entry.startupMs)} ms`);
  } catch (error) {
    entry.status = `failed to start: ${error.message}`;
    delete ctx.ports[id];
    say(`${target.name}: ${entry.status}`);
  }
}

const plannedCells = [...selected.values()].reduce((n, t) => n + t.length, 0);
say(
  `${plannedCells} cells × ${rounds} round(s) × ${duration} s, ${connections} connections; starting ${needed.size} target process(es) in ${ctx.tmp}`,
);

const order = TARGETS.map((t) => t.id).filter((id) => needed.has(id));
const phaseA = order.filter((id) => !TARGET_BY_ID.get(id).fixtures && !TARGET_BY_ID.get(id).needs);
const phaseB = order.filter((id) => !phaseA.includes(id));
for (const id of phaseA) await startTarget(id);

// Workloads whose requests depend on a running simulator (a cursor) learn them now, before fixtures are taken.
for (const workload of WORKLOADS) {
  if (!workload.prepare || !selected.has(workload.id)) continue;
  try {
    workload.requests = await workload.prepare(ctx);
  } catch (error) {
    skipped.push(`${workload.name}: not run, its requests could not be prepared (${error.message}).`);
    selected.delete(workload.id);
  }
}
try {
  const sets = await captureFixtures(
    ctx,
    WORKLOADS.filter((w) => selected.has(w.id)),
  );
  say(
    `fixtures captured: ${
      Object.entries(sets)
        .map(([set, list]) => `${set} ${list.length}`)
        .join(', ') || 'none needed'
    }`,
  );
} catch (error) {
  notes.push(`Fixtures could not be captured: ${error.message}`);
  say(`fixtures: ${error.message}`);
}
for (const id of phaseB) await startTarget(id);

if (rebuilds)
  notes.push(
    `dist/ was older than src/ (src/ is being edited) and was rebuilt ${rebuilds === 1 ? 'once' : `${rebuilds} times`} while the targets started; each simulator target runs the dist/ compiled just before it started.`,
  );

// ---- the matrix

const live = (id) => processes.get(id)?.child !== undefined;
const cells = [];
for (const workload of WORKLOADS) {
  for (const target of selected.get(workload.id) ?? []) {
    if (live(target)) cells.push({ workload, target });
    else if (!unavailable.has(target))
      skipped.push(
        `${workload.name} · ${TARGET_BY_ID.get(target).name}: not run (${processes.get(target)?.status ?? 'not started'}).`,
      );
  }
}

const checks = new Map();
async function answersOf(workload, target) {
  const list = [];
  for (const request of sampleRequests(workload)) list.push(await answerOf(ctx.ports[target], request));
  return list;
}
for (const { workload, target } of cells)
  checks.set(`${workload.id}/${target}`, { before: await answersOf(workload, target) });
// The reference simulator answers even when its own cell was filtered out (it runs as a fixture source).
const references = new Map();
for (const workload of WORKLOADS) {
  const reference = workload.compareTo ?? workload.source;
  if (!reference || !live(reference) || !cells.some((c) => c.workload === workload)) continue;
  references.set(
    workload.id,
    checks.get(`${workload.id}/${reference}`)?.before ?? (await answersOf(workload, reference)),
  );
}

// An idle target that still burns CPU (a timer, a JIT, a file watcher) takes it from whichever target is
// being measured: measure it, and watch the others during every cell.
const liveEntries = () => [...processes.values()].filter((p) => p.child && p.child.exitCode === null);
const ticksNow = () => new Map(liveEntries().map((p) => [p.id, cpuTicks(p.pid)]));
{
  // Start-up leaves garbage and lazy work behind; let every target finish it first.
  for (const entry of liveEntries()) await waitIdle(entry.pid, 10_000);
  const before = ticksNow();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const after = ticksNow();
  for (const [id, ticks] of after) processes.get(id).idleCpu = (ticks - before.get(id)) / 3;
  const busy = [...after.keys()].filter((id) => processes.get(id).idleCpu > 3);
  if (busy.length)
    notes.push(
      `Busy while idle (over 3 % of a core with no load, measured for 3 s before round 1): ${busy.map((id) => `${TARGET_BY_ID.get(id).name} ${processes.get(id).idleCpu.toFixed(0)} %`).join(', ')}.`,
    );
}
const background = new Map();
const outside = { ticks: 0, steal: 0, seconds: 0 };
// Cores taken elsewhere during a cell past which the cell is listed as disturbed (a VM's steal alone is often 0.1).
const DISTURBED = 0.2;

/** Notes a cell during which other targets, or processes outside the benchmark, took a noticeable share of CPU. */
function noteNeighbours(workload, target, round, before, after, seconds) {
  const delta = (map, id) => (map.get(id) ?? 0) - (before.groups.get(id) ?? 0);
  const involved = new Set([target, ...(TARGET_BY_ID.get(target).needs ?? [])]);
  const ours = liveEntries().reduce((sum, p) => sum + delta(after.groups, p.pid), 0) + (after.self - before.self);
  const others = liveEntries()
    .filter((p) => !involved.has(p.id))
    .map((p) => [p.id, delta(after.groups, p.pid) / 100 / seconds]);
  const otherCores = others.reduce((sum, [, cores]) => sum + cores, 0);
  const outsideTicks = Math.max(0, after.busy - before.busy - ours);
  const steal = after.steal - before.steal;
  outside.ticks += outsideTicks;
  outside.steal += steal;
  outside.seconds += seconds;
  const parts = [];
  if (otherCores > DISTURBED) {
    const [top] = others.sort((a, b) => b[1] - a[1]);
    parts.push(`other targets ${otherCores.toFixed(2)} (most ${TARGET_BY_ID.get(top[0]).name})`);
  }
  if (outsideTicks / 100 / seconds > DISTURBED) parts.push(`outside ${(outsideTicks / 100 / seconds).toFixed(2)}`);
  if (steal / 100 / seconds > DISTURBED) parts.push(`stolen ${(steal / 100 / seconds).toFixed(2)}`);
  if (!parts.length) return;
  if (!background.has(workload.id)) background.set(workload.id, []);
  background.get(workload.id).push(`round ${round + 1} ${TARGET_BY_ID.get(target).name}: ${parts.join(', ')}`);
}

const runs = new Map();
const byWorkload = WORKLOADS.map((w) => ({
  workload: w,
  targets: cells.filter((c) => c.workload === w).map((c) => c.target),
})).filter((w) => w.targets.length);
for (let round = 0; round < rounds; round++) {
  for (const { workload, targets } of byWorkload) {
    const turn = roundOrder(workload, targets, round);
    for (const target of turn) {
      const key = `${workload.id}/${target}`;
      const { pid } = processes.get(target);
      const port = ctx.ports[target];
      if (!live(target) || processes.get(target).child.exitCode !== null) {
        say(
          `round ${round + 1}/${rounds} ${workload.id} · ${TARGET_BY_ID.get(target).name}: the process has exited; cell skipped`,
        );
        continue;
      }
      if (round === 0) {
        await runLoad({ port, workload, connections, duration: WARMUP_S });
        await waitIdle(pid);
      }
      const before = cpuSnapshot();
      const startedAt = performance.now();
      const result = await runLoad({ port, workload, connections, duration });
      const after = cpuSnapshot();
      const seconds = (performance.now() - startedAt) / 1000;
      const idleMs = await waitIdle(pid);
      noteNeighbours(workload, target, round, before, after, seconds);
      if (!runs.has(key)) runs.set(key, []);
      runs.get(key)[round] = result;
      say(
        `round ${round + 1}/${rounds} ${workload.id} · ${TARGET_BY_ID.get(target).name}: ${formatRps(result.rps)} req/s, p50 ${formatMs(result.p50)} ms, p99 ${formatMs(result.p99)} ms, ` +
          `errors ${result.errors} (timeouts ${result.timeouts}), non-2xx ${result.non2xx}${idleMs > 1000 ? `; idle again after ${(idleMs / 1000).toFixed(1)} s` : ''}`,
      );
    }
  }
}

if (outside.seconds > 0) {
  const cores = cpus().length;
  notes.push(
    `During the measured cells, processes outside the benchmark used ${((100 * outside.ticks) / 100 / outside.seconds / cores).toFixed(1)} % and the hypervisor stole ` +
      `${((100 * outside.steal) / 100 / outside.seconds / cores).toFixed(1)} % of the ${cores} cores on average (cells where other targets, outside processes or steal took over ${DISTURBED} of a core are listed under their workload).`,
  );
}
for (const { workload, target } of cells)
  checks.get(`${workload.id}/${target}`).after = await answersOf(workload, target);
for (const entry of processes.values()) if (entry.pid) entry.peakRssMiB = peakRssMiB(entry.pid);
say(`stopping ${[...processes.values()].filter((p) => p.child).length} target process(es)`);
await stopAll();
say('removing the generated recordings, tapes and fixtures');
rmSync(ctx.tmp, { recursive: true, force: true });

// ---- checks, numbers, judgement

function checkText(workload, target) {
  const check = checks.get(`${workload.id}/${target}`);
  if (!check) return { text: '–', ok: true };
  const problems = [];
  const failed = check.before.find((a) => a.status < 200 || a.status > 299);
  if (failed) problems.push(`answered ${failed.status || failed.error}`);
  const reference = workload.compareTo ?? workload.source;
  let same = '';
  if (workload.sameBytes.includes(target) && references.has(workload.id)) {
    const want = references.get(workload.id);
    const differs = check.before.findIndex((a, i) => !sameAnswer(a, want[i]));
    if (differs === -1) same = `same bytes as ${TARGET_BY_ID.get(reference).name}`;
    else
      problems.push(
        `differs from ${TARGET_BY_ID.get(reference).name}: ${difference(check.before[differs], want[differs])}`,
      );
  }
  const changed = check.after && check.after.some((a, i) => !sameAnswer(a, check.before[i]));
  const text = [
    ...problems.map((p) => `✗ ${p}`),
    same && `✓ ${same}`,
    !problems.length && !same && '✓ 2xx',
    changed && 'answer changed during the run',
  ]
    .filter(Boolean)
    .join('; ');
  return { text, ok: problems.length === 0 };
}

function cellOk(workloadId, target) {
  const workload = WORKLOADS.find((w) => w.id === workloadId);
  const stats = summarise(runs, `${workloadId}/${target}`);
  if (stats.problems > 0) return { ok: false, why: `${stats.problems.toLocaleString('en-US')} errors` };
  const check = checkText(workload, target);
  return check.ok ? { ok: true } : { ok: false, why: check.text };
}

const nameOf = (id) => TARGET_BY_ID.get(id).name;
const workloadsOut = byWorkload.map(({ workload, targets }) => {
  const columns = [
    ['node', workload.refs.node],
    ['express', workload.refs.express],
    ['peer', workload.refs.peer],
  ].filter(([, id]) => id);
  const disturbed = background.get(workload.id) ?? [];
  const remarks = disturbed.length
    ? [
        `Disturbed cells (cores taken meanwhile by other targets, by processes outside the benchmark, or stolen by the hypervisor): ${disturbed.join('; ')}.`,
      ]
    : [];
  const rows = targets.map((target) => {
    const stats = summarise(runs, `${workload.id}/${target}`);
    const check = checkText(workload, target);
    const errorsText = stats.problems
      ? `${stats.problems.toLocaleString('en-US')} (${[stats.timeouts && `${stats.timeouts} timeouts`, stats.errors - stats.timeouts && `${stats.errors - stats.timeouts} socket errors`, stats.non2xx && `${stats.non2xx} non-2xx`].filter(Boolean).join(', ')})`
      : '0';
    if (stats.rounds < rounds) remarks.push(`${nameOf(target)} ran ${stats.rounds} of ${rounds} rounds.`);
    return {
      name: nameOf(target),
      ...stats,
      errorsText,
      flagged: stats.problems > 0 || !check.ok,
      ratios: columns.map(([, ref]) =>
        runs.has(`${workload.id}/${ref}`) ? ratio(runs, workload.id, target, ref) : NaN,
      ),
      check: check.text,
    };
  });
  return {
    name: workload.name,
    note: `Request: ${workload.note}`,
    ratioColumns: columns.map(([, id]) => nameOf(id)),
    rows,
    remarks,
  };
});

const criteria = judge(CRITERIA, runs, {
  nameOf,
  cellOk,
  workloadName: (id) => WORKLOADS.find((w) => w.id === id).short,
});
say('targets:');
for (const c of criteria)
  process.stderr.write(
    `  ${c.met ? '✅' : '❌'} ${c.label}: ${c.measured} (target ${c.goal})${c.note ? ` ${c.note}` : ''}\n`,
  );

// ---- measures, after every target is gone: they share the same two cores

let measures;
if (flags['no-measures']) {
  measures = { skipped: '--no-measures' };
} else {
  say('measures: starting');
  try {
    const { runMeasures } = await import('./suite/measures/index.mjs');
    measures = { rows: await runMeasures({ quick: flags.quick }) };
    say(`measures: ${measures.rows.length} row(s)`);
  } catch (error) {
    measures = { failure: error?.stack?.split('\n').slice(0, 3).join(' ') ?? String(error) };
    say(`measures failed: ${measures.failure}`);
  }
}

const wall = (performance.now() - began) / 1000;
writeReport(join(root, 'bench', 'results.md'), {
  machine: machineLine(),
  command: commandLine(),
  settings: `${duration} s per cell, ${rounds} round(s), ${connections} connections${only ? `, only "${flags.only}"` : ''}`,
  wallTime: `${Math.floor(wall / 60)} min ${Math.round(wall % 60)} s`,
  connections,
  duration,
  notes,
  criteria,
  workloads: workloadsOut,
  skipped,
  processes: [...processes.values()].map((p) => ({
    name: p.name,
    pid: p.pid,
    startupMs: p.startupMs,
    peakRssMiB: p.peakRssMiB,
    idleCpu: p.idleCpu,
    status: p.status,
  })),
  measures,
});
say(
  `wrote bench/results.md: ${criteria.filter((c) => c.met).length} of ${criteria.length} targets met; ${Math.floor(wall / 60)} min ${Math.round(wall % 60)} s`,
);
// The README shows the latest full run only: a quick or partial run would put a lesser table at the front door.
if (!flags.quick && !only) {
  const { updateReadme } = await import('./suite/readme.mjs');
  if (updateReadme(join(root, 'README.md'), join(root, 'bench', 'results.md')))
    say("updated the README's performance section");
}
