// One prompt's turn on the real runtime beside the same script on the simulator, for information: the simulator
// stands in for the runtime, so how far its turn's timing is from the runtime's is worth seeing, but there is no
// peer to beat. Both serve one scenario whose turn is a reasoning, a `bash` call and an answer: `real --pace 1`
// (opencode serve, its model that script played as written) and `mock` (real time: the clock follows the wall
// clock, as an app meets it). One subscriber on GET /api/event each; per cycle, the time from sending POST
// …/prompt to the session's first session.next.* frame, and to its session.next.step.ended with finish "stop",
// the turn's end on both (the real runtime publishes no session.status during such a turn). A cycle counts only
// when its turn called bash before it ended, so a prompt no script covered (the model's short answer) fails the
// rows instead of looking fast.
// Usage: node bench/suite/measures/real-turn.mjs [--quick]
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import {
  contextNote,
  freePort,
  guarded,
  jsonCaller,
  median,
  NO_TARGET,
  probe,
  ROOT,
  round,
  row,
  runIfMain,
  sleep,
  warmThenMeasure,
} from './lib.mjs';

// Measured here (2026-11-28, while other processes used 40–60 % of the 2 cores): the first event 2–4 ms after
// sending on the simulator (its prompt.admitted, published before the prompt's own answer) and 24–220 ms on the
// runtime (after its answer, ~25 ms); the end 3.40 s on the simulator, steady within 3 ms, and 2.2–2.9 s on the
// runtime. The simulator's turn is the longer by its tool step, the script's default 1.5 s where the runtime runs
// `echo` in ~50 ms; the runtime adds 150–180 ms of its own to each model step's 700 ms before its first token.

// The real runtime has none of the scenario's sessions, so each of its cycles creates one; on the simulator the
// scenario's own session is prompted, since only its sessions play scripted turns (a created one plays a
// generated turn).
const SESSION = 'ses_benchturn0001AbCdEfGhIjKl';
// The runtime's first prompt loads its plugins and model catalogue (about 2 s more here): start-up, not a turn.
// The simulator gets the same warm-up so both count the same cycles.
const WARM_CYCLES = 1;
const TURN_TIMEOUT_MS = 15_000;
// `real` stops the runtime and the model and removes their workspace on SIGTERM, in 1–2 s here; the scope's own
// stop sends SIGKILL after 3 s, which would leave opencode running without its parent on a slow machine.
const STOP_GRACE_MS = 8000;
// opencode 1.18.33 accepts connections while it starts, and a request it accepted then was never answered (not
// within 25 s), where one sent a moment later is: each probe of its readiness gives up after this long instead of
// waiting out the whole start-up as the scope's firstAnswer() would.
const PROBE_TIMEOUT_MS = 1000;
const READY_TIMEOUT_MS = 30_000;

const FIRST_REAL = 'real turn: prompt → first event (real runtime), median';
const FIRST_SIM = 'real turn: prompt → first event (simulator), median';
const END_REAL = 'real turn: prompt → turn end (real runtime), median';
const END_SIM = 'real turn: prompt → turn end (simulator), median';

const FRAME_END = '\n\n';

/**
 * The scenario both serve. The simulator plays a session's listed turns once each, in order, so the turn is
 * listed once per cycle; the runtime's model matches by prompt and plays the first of them every time.
 */
function scenarioYaml(turns) {
  const turn = [
    `  - session: ${SESSION}`,
    '    prompt: bench',
    '    steps:',
    '      - reasoning: Look at the workspace first.',
    '      - tool: bash',
    '        input: { command: echo bench }',
    '      - text: Done, the command printed its line.',
  ];
  return [
    'name: bench-turn',
    'seed: bench-turn',
    'scriptedModel: { match: prompt }',
    'sessions:',
    `  - id: ${SESSION}`,
    'turns:',
    ...Array.from({ length: turns }, () => turn).flat(),
    '',
  ].join('\n');
}

/** Why `real` would refuse to start here (its own checks, made before spawning it), or undefined. */
function whyNoRealRuntime() {
  const pkg = `opencode-${process.platform}-${process.arch}`;
  const onPath = (command) =>
    (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
  if (!existsSync(join(ROOT, 'node_modules', pkg, 'bin', 'opencode'))) return `no node_modules/${pkg}/bin/opencode`;
  if (!onPath('rg')) return 'ripgrep (rg) is not on PATH';
  if (!onPath('git')) return 'git is not on PATH';
  return undefined;
}

function opencodeVersion() {
  try {
    const manifest = join(ROOT, 'node_modules', `opencode-${process.platform}-${process.arch}`, 'package.json');
    return JSON.parse(readFileSync(manifest, 'utf8')).version;
  } catch {
    return '?';
  }
}

/**
 * One subscriber on GET /api/event, as a frontend holds it, resolved once server.connected has arrived. `turn(id)`
 * then watches one session's turn: when its first session.next.* frame and its last step's end arrived.
 */
async function subscribe(scope, port) {
  let watching;
  let closing = false;
  let pending = '';
  let ready;
  const connected = new Promise((resolve, reject) => {
    ready = resolve;
    setTimeout(() => reject(new Error('GET /api/event: no server.connected within 10 s')), 10_000).unref();
  });
  // Settled by the await below; a rejection after close must not count as unhandled.
  connected.catch(() => {});

  const onFrame = (frame, at) => {
    // Comments (`: heartbeat`) and `id:` lines carry nothing here; each event is one `data:` line on both.
    const data = frame.split('\n').find((line) => line.startsWith('data:'));
    if (!data) return;
    if (ready && data.includes('"server.connected"')) {
      ready();
      ready = undefined;
      return;
    }
    // Most frames are deltas and other sessions' (or the runtime's plugins'): only the watched session's are parsed.
    if (!watching || !data.includes(watching.id)) return;
    let event;
    try {
      event = JSON.parse(data.slice(5));
    } catch {
      watching.fail(`a frame that is not JSON: ${data.slice(0, 120)}`);
      return;
    }
    if (event.data?.sessionID !== watching.id || !event.type?.startsWith('session.next.')) return;
    watching.firstAt ??= at;
    watching.firstType ??= event.type;
    if (event.type === 'session.next.tool.called' && event.data.tool === 'bash') watching.bash = true;
    if (event.type === 'session.next.step.failed')
      watching.fail(`the turn's step failed: ${JSON.stringify(event.data).slice(0, 160)}`);
    else if (event.type === 'session.next.step.ended' && event.data.finish === 'stop') {
      if (watching.bash) watching.done(at);
      else watching.fail('the turn ended without calling bash: not the scripted turn');
    }
  };

  const stream = http.get({ host: '127.0.0.1', port, path: '/api/event', agent: false }, (res) => {
    if (res.statusCode !== 200) {
      watching?.fail(`GET /api/event answered ${res.statusCode}`);
      res.resume();
      return;
    }
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      const at = performance.now();
      pending += chunk;
      let end;
      while ((end = pending.indexOf(FRAME_END)) >= 0) {
        onFrame(pending.slice(0, end), at);
        pending = pending.slice(end + FRAME_END.length);
      }
    });
    res.once('close', () => {
      if (!closing) watching?.fail('the event stream closed');
    });
  });
  stream.on('error', (error) => watching?.fail(`GET /api/event: ${error.message}`));
  const close = () => {
    closing = true;
    stream.destroy();
  };
  scope.onClose(close);
  await connected;

  return {
    close,
    /** The watched turn's times (performance.now()) and first frame's type, or a rejection naming what was wrong. */
    turn(id) {
      let timer;
      const ended = new Promise((resolve, reject) => {
        watching = {
          id,
          firstAt: undefined,
          firstType: undefined,
          bash: false,
          done: (endAt) => resolve({ firstAt: watching.firstAt, firstType: watching.firstType, endAt }),
          fail: (why) => reject(new Error(why)),
        };
        timer = setTimeout(
          () => reject(new Error(`no end of ${id}'s turn within ${TURN_TIMEOUT_MS / 1000} s`)),
          TURN_TIMEOUT_MS,
        );
      });
      // Settled either way by the cycle; a rejection before it awaits must not count as unhandled.
      ended.catch(() => {});
      return {
        ended,
        stop: () => {
          clearTimeout(timer);
          watching = undefined;
        },
      };
    },
  };
}

/** Polls GET /api/session until a 2xx; the ms from `since`. */
async function waitReady(scope, sim, port, since) {
  for (;;) {
    scope.check();
    sim.assertAlive();
    const answer = await probe(port, '/api/session', { timeoutMs: PROBE_TIMEOUT_MS });
    const at = performance.now();
    if (answer && answer.status >= 200 && answer.status < 300) return at - since;
    if (at - since > READY_TIMEOUT_MS)
      throw new Error(
        `no 2xx to GET /api/session within ${READY_TIMEOUT_MS / 1000} s${answer ? ` (last answer ${answer.status})` : ''}`,
      );
    await sleep(20);
  }
}

/** SIGTERM, then time for the child to end what it started itself, and only then the scope's own stop. */
async function stopGently(sim) {
  if (sim.exitCode === undefined) {
    sim.child.kill('SIGTERM');
    const deadline = performance.now() + STOP_GRACE_MS;
    while (sim.exitCode === undefined && performance.now() < deadline) await sleep(50);
  }
  await sim.stop();
}

/** Starts one target, plays its warm-up and measured cycles, stops it; the cycles' times and the failures. */
async function playTurns(scope, { args, createSession }, cycles) {
  const port = await freePort();
  const since = performance.now();
  const sim = scope.spawnSim([...args, '--port', String(port)]);
  scope.onClose(() => stopGently(sim));
  const failures = [];
  const warm = [];
  try {
    const readyMs = await waitReady(scope, sim, port, since);
    const stream = await subscribe(scope, port);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    scope.onClose(() => agent.destroy());
    const call = jsonCaller(scope, port, agent);

    const cycle = async (n) => {
      let id = SESSION;
      if (createSession) {
        const created = await call('create', '/api/session', { method: 'POST', body: { agent: 'build' } });
        id = created?.data?.id;
        if (typeof id !== 'string' || !id.startsWith('ses'))
          throw new Error(`create: no session in ${JSON.stringify(created).slice(0, 160)}`);
      }
      const turn = stream.turn(id);
      try {
        const sent = performance.now();
        // The model plays the turn whose prompt ("bench") the text contains.
        const prompted = await call('prompt', `/api/session/${id}/prompt`, {
          method: 'POST',
          body: { prompt: { text: n > 0 ? `bench, cycle ${n}` : 'bench, warm-up' } },
        });
        if (prompted?.data?.sessionID !== id)
          throw new Error(`prompt: not admitted to ${id}: ${JSON.stringify(prompted).slice(0, 160)}`);
        const answeredAt = performance.now();
        const { firstAt, firstType, endAt } = await turn.ended;
        const times = { first: firstAt - sent, end: endAt - sent, answer: answeredAt - sent, firstType };
        if (n < 0) warm.push(times);
        return times;
      } finally {
        turn.stop();
      }
    };

    const { results } = await warmThenMeasure({
      warm: WARM_CYCLES,
      count: cycles,
      step: cycle,
      sim,
      failures,
      unit: 'cycle',
    });
    stream.close();
    return { results, warm, readyMs, failures };
  } catch (error) {
    failures.push(error.message);
    return { results: [], warm, failures };
  } finally {
    await stopGently(sim);
  }
}

export async function measure({ quick = false } = {}) {
  const cycles = quick ? 2 : 5;
  return guarded(
    {
      timeoutMs: (quick ? 60 : 90) * 1000,
      expected: [FIRST_REAL, FIRST_SIM, END_REAL, END_SIM].map((name) => ({ name, unit: 'ms', target: NO_TARGET })),
    },
    async (scope) => {
      const context = contextNote();
      const dir = mkdtempSync(join(tmpdir(), 'sim-measure-real-turn-'));
      scope.onClose(() => rmSync(dir, { recursive: true, force: true }));
      // `validate` wants a scenario's file named after it.
      const file = join(dir, 'bench-turn.yaml');
      writeFileSync(file, scenarioYaml(WARM_CYCLES + cycles));

      const script =
        "the script: a reasoning, a bash call (`echo bench`) and an answer, with its default pauses (700 ms to a model step's first token, deltas 20–50 ms apart), listed once per cycle with `scriptedModel: {match: prompt}`";
      const report = (target, { firstName, endName, setup }) => {
        const { results, warm, readyMs, failures } = target;
        const ms = (key) => results.map((r) => round(r[key], 1));
        const med = (key) => round(median(results.map((r) => r[key])), 1);
        const clean = failures.length === 0 && results.length === cycles;
        const failed = failures.length ? `; FAILED: ${failures.slice(0, 3).join('; ')}` : '';
        const firstTypes = [...new Set(results.map((r) => r.firstType))].join(', ') || 'none';
        const warmNote = warm.length
          ? `the warm-up cycle ${round(warm[0].first, 1)} ms to the first event, ${round(warm[0].end, 0)} ms to the end`
          : 'no warm-up cycle';
        const ready = readyMs === undefined ? '' : `; ready ${round(readyMs, 0)} ms after the spawn`;
        scope.report(
          row(
            firstName,
            med('first'),
            'ms',
            NO_TARGET,
            clean,
            `for information; no peer to beat. From sending POST …/prompt to the session's first session.next.* frame on the event stream (${firstTypes}): ${ms('first').join(', ')} ms over ${results.length} cycles; the prompt's own answer after ${med('answer')} ms (median); ${warmNote}; ${setup}${ready}; ${context}${failed}`,
          ),
        );
        scope.report(
          row(
            endName,
            med('end'),
            'ms',
            NO_TARGET,
            clean,
            `for information; no peer to beat. From sending the prompt to the session's session.next.step.ended with finish "stop": ${ms('end').join(', ')} ms over ${results.length} cycles; ${script}${failed}`,
          ),
        );
      };

      // The simulator first: the runtime is the part that may be missing or hang, and what was reported before
      // the watchdog gave up is kept.
      const simulator = await playTurns(scope, { args: ['mock', '--scenario', file], createSession: false }, cycles);
      report(simulator, {
        firstName: FIRST_SIM,
        endName: END_SIM,
        setup: `${cycles} cycles one after another after ${WARM_CYCLES} warm-up, \`mock --scenario bench-turn.yaml --port P\` (the clock follows the wall clock; its tool steps take their default 1.5 s), each cycle prompting the scenario's session ${SESSION} on one keep-alive connection, one GET /api/event subscriber`,
      });

      const why = whyNoRealRuntime();
      if (why) {
        for (const name of [FIRST_REAL, END_REAL])
          scope.report(row(name, NaN, 'ms', NO_TARGET, false, `failed: the real runtime cannot run here: ${why}`));
        return;
      }
      const real = await playTurns(
        scope,
        { args: ['real', '--scenario', file, '--pace', '1'], createSession: true },
        cycles,
      );
      report(real, {
        firstName: FIRST_REAL,
        endName: END_REAL,
        setup: `${cycles} cycles one after another after ${WARM_CYCLES} warm-up, \`real --scenario bench-turn.yaml --port P --pace 1\` (opencode ${opencodeVersion()} serve, its model the same script; bash runs for real), each cycle POST /api/session {"agent":"build"} (not timed) then its prompt on one keep-alive connection, one GET /api/event subscriber`,
      });
    },
  );
}

await runIfMain(import.meta.url, measure);
