// PTY echo over its WebSocket, as a terminal in a frontend uses it: a PTY created through the API
// (POST /api/pty {}: the default /bin/bash -l, an interactive shell that stays running), its WebSocket
// (GET /api/pty/{id}/connect, with the `ws` package) opened and read up to the cursor frame that ends the
// replay, then lines typed one at a time. The simulated terminal echoes the keys and its shell runs the line,
// so `echo bench-N` + Enter comes back as one text frame, "echo bench-N\r\nbench-N\r\n$ ": the round trip is
// from sending the line to the arrival of its echo and the command's output. Every echo is checked, so a
// terminal that printed something else fails the rows instead of looking fast.
// Usage: node bench/suite/measures/pty-echo.mjs [--quick]
import http from 'node:http';
import WebSocket from 'ws';
import {
  contextNote,
  freePort,
  guarded,
  percentile,
  request,
  round,
  row,
  runIfMain,
  SHELL_ID,
  SHELL_PATH,
  warmThenMeasure,
} from './lib.mjs';

// Measured here (quick runs of 200 echoes): medians of 0.29–0.41 ms and p99s of 3.2–3.7 ms on a quiet machine
// (1,600–1,900 echoes a second), 0.42–0.44 ms and 4.8–5.1 ms while other processes used half to three quarters
// of the 2 cores. A keystroke's echo is what a person at a terminal feels: the p99 target, 10 ms, is under a
// frame at 60 Hz and about 2× the worst p99 seen, room for a busier machine (a GC pause or a descheduled
// client shows in the tail); the median target, 2 ms, is about 5× the worst median, so an echo that started
// costing milliseconds each time would miss it.
const MEDIAN_TARGET_MS = 2;
const P99_TARGET_MS = 10;
const WARM_ECHOES = 20;
const ECHO_TIMEOUT_MS = 5000;

const MEDIAN = 'PTY WebSocket echo round trip, median (send a line → its echo and output back)';
const P99 = 'PTY WebSocket echo round trip p99';

export async function measure({ quick = false } = {}) {
  const echoes = quick ? 200 : 1000;
  return guarded(
    {
      timeoutMs: (quick ? 30 : 60) * 1000,
      expected: [
        { name: MEDIAN, unit: 'ms', target: `< ${MEDIAN_TARGET_MS} ms` },
        { name: P99, unit: 'ms', target: `< ${P99_TARGET_MS} ms` },
      ],
    },
    async (scope) => {
      const context = contextNote();
      const port = await freePort();
      const sim = scope.spawnSim(['mock', '--port', String(port)]);
      await scope.firstAnswer(sim, port, SHELL_PATH, { since: performance.now(), expect: SHELL_ID });
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      scope.onClose(() => agent.destroy());

      const created = await request(port, '/api/pty', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        agent,
      });
      const pty = created.status === 200 ? JSON.parse(created.body).data : undefined;
      if (!pty?.id?.startsWith('pty_') || pty.status !== 'running')
        throw new Error(`POST /api/pty answered ${created.status} ${created.body.slice(0, 160)}`);

      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/pty/${pty.id}/connect`);
      scope.onClose(() => ws.terminate());
      // What the terminal has printed since the line was sent, and who waits for it.
      let received = '';
      let waiting;
      let closed;
      let replay = '';
      const opened = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no cursor frame within 10 s of connecting')), 10_000);
        ws.on('message', (data, isBinary) => {
          const at = performance.now();
          if (isBinary) {
            // The zero byte and {"cursor":N} that end the replay.
            clearTimeout(timer);
            resolve(data.subarray(1).toString('utf8'));
            return;
          }
          if (!waiting) {
            replay += data.toString('utf8');
            return;
          }
          received += data.toString('utf8');
          if (received.includes(waiting.expected)) waiting.done(at);
        });
        ws.once('unexpected-response', (req, res) => {
          clearTimeout(timer);
          reject(new Error(`the WebSocket handshake answered ${res.statusCode}`));
        });
        ws.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
          waiting?.fail(`the PTY's WebSocket failed: ${error.message}`);
        });
        ws.once('close', (code, reason) => {
          closed = `the simulator closed the PTY's WebSocket (${code} ${String(reason)})`;
          waiting?.fail(closed);
        });
      });
      const cursor = await opened;

      const echo = (n) => {
        const marker = `bench-${n}`;
        let timer;
        const back = new Promise((resolve, reject) => {
          received = '';
          waiting = {
            expected: `echo ${marker}\r\n${marker}\r\n`,
            done: resolve,
            fail: (why) => reject(new Error(why)),
          };
          timer = setTimeout(
            () =>
              reject(
                new Error(
                  `${marker}: not echoed within ${ECHO_TIMEOUT_MS / 1000} s (got ${JSON.stringify(received.slice(0, 80))})`,
                ),
              ),
            ECHO_TIMEOUT_MS,
          );
        });
        const sent = performance.now();
        ws.send(`echo ${marker}\r`);
        return back
          .then((at) => at - sent)
          .finally(() => {
            clearTimeout(timer);
            waiting = undefined;
          });
      };

      const failures = [];
      // The first lines compile the terminal's and the socket's code paths: start-up, not an echo.
      const {
        results: times,
        wallMs,
        simCpuMs,
      } = await warmThenMeasure({
        warm: WARM_ECHOES,
        count: echoes,
        step: echo,
        sim,
        failures,
        unit: 'echo',
        units: 'echoes',
        check: () => scope.check(),
      });

      times.sort((a, b) => a - b);
      const p = (q) => round(percentile(times, q), 2);
      const failed = failures.length ? `; FAILED: ${failures.slice(0, 3).join('; ')}` : '';
      const clean = failures.length === 0;
      const setup = `${times.length} lines one at a time after ${WARM_ECHOES} warm-up ones, each "echo bench-N" + CR sent as one text frame and its echo "echo bench-N\\r\\nbench-N\\r\\n$ " read back as one, on one WebSocket to a PTY made by POST /api/pty {} (${pty.command} ${pty.args.join(' ')}; replay ${JSON.stringify(replay)}, cursor frame ${cursor}) in \`mock --port P\` (default scenario); client and simulator share the 2 cores`;
      scope.report(
        row(
          MEDIAN,
          p(50),
          'ms',
          `< ${MEDIAN_TARGET_MS} ms`,
          clean && p(50) < MEDIAN_TARGET_MS,
          `send → echo back: p50 ${p(50)} ms, p99 ${p(99)} ms, max ${p(100)} ms (min ${p(0)}); ${setup}; ${context}${failed}`,
        ),
      );
      scope.report(
        row(
          P99,
          p(99),
          'ms',
          `< ${P99_TARGET_MS} ms`,
          clean && p(99) < P99_TARGET_MS,
          `over ${times.length} echoes: p90 ${p(90)} ms, p99 ${p(99)} ms, max ${p(100)} ms; ${round(times.length / (wallMs / 1000), 0)} echoes/s, the simulator using ${round((simCpuMs * 1000) / Math.max(1, times.length), 0)} µs of CPU an echo${closed ? `; ${closed}` : ''}${failed}`,
        ),
      );
    },
  );
}

await runIfMain(import.meta.url, measure);
