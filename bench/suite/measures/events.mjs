// Event fan-out: 1,000 subscribers on GET /api/event, then agent switches sent one at a time, each when the
// previous one's frame has reached every subscriber; the latency of a frame is from sending its request to
// its arrival at a subscriber. The subscribers live in this process, so their reading is in the figure, as
// it is for any client; the parsing is kept to byte searches for that reason.
// Usage: node bench/suite/measures/events.mjs [--quick]
import http from 'node:http';
import {
  contextNote,
  freePort,
  guarded,
  mib,
  NO_TARGET,
  percentile,
  procCpuMs,
  procStatus,
  request,
  round,
  row,
  runIfMain,
  SESSION_ID,
  SHELL_PATH,
  sleep,
} from './lib.mjs';

const P99_TARGET_MS = 50;
const RSS_TARGET_MIB = 300;
const WARM_EVENTS = 10;
const EVENT_TIMEOUT_MS = 5000;

const LATENCY = 'event latency p99 (request → each subscriber)';
const LAST = 'event fan-out, last subscriber p99';
const RSS = 'RSS with subscribers open';

const FRAME_END = Buffer.from('\n\n');
const CONNECTED = Buffer.from('"type":"server.connected"');
const SWITCHED = Buffer.from('"type":"session.next.agent.switched"');
const AGENTS = ['plan', 'build'].map((agent) => ({
  agent,
  body: JSON.stringify({ agent }),
  marker: Buffer.from(`"agent":"${agent}"`),
}));

export async function measure({ quick = false } = {}) {
  const subscribers = quick ? 100 : 1000;
  const events = quick ? 50 : 200;
  return guarded(
    {
      timeoutMs: (quick ? 45 : 90) * 1000,
      expected: [
        { name: LATENCY, unit: 'ms', target: `≤ ${P99_TARGET_MS} ms` },
        { name: LAST, unit: 'ms', target: NO_TARGET },
        { name: RSS, unit: 'MiB', target: `< ${RSS_TARGET_MIB} MiB` },
      ],
    },
    async (scope) => {
      const context = contextNote();
      const port = await freePort();
      // --virtual-time: a world moving on by itself (questions appearing at 20 s…) would add to what is measured.
      const sim = scope.spawnSim([
        'mock',
        '--virtual-time',
        '--port',
        String(port),
        '--max-subscribers',
        String(subscribers + 100),
      ]);
      await scope.firstAnswer(sim, port, SHELL_PATH, { since: performance.now() });

      const subAgent = new http.Agent({ keepAlive: true, maxSockets: subscribers + 20 });
      const postAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const subs = [];
      let tearingDown = false;
      scope.onClose(() => {
        tearingDown = true;
        for (const sub of subs) sub.req.destroy();
        subAgent.destroy();
        postAgent.destroy();
      });

      // The event being waited for: which one, when its request left, who has it.
      let current;
      const latency = new Float64Array(events * subscribers).fill(NaN);
      let alive = 0;
      let dropped = 0;
      let stray = 0;
      let duplicates = 0;
      let wrongAgent = 0;
      let otherFrames = 0;

      const settleIfDone = () => {
        if (current && current.received >= alive) current.done();
      };

      const onFrame = (sub, buf, start, end, at) => {
        const switched = buf.indexOf(SWITCHED, start);
        if (switched >= 0 && switched < end) {
          if (!current) {
            stray++;
            return;
          }
          if (sub.lastSeen === current.seq) {
            duplicates++;
            return;
          }
          sub.lastSeen = current.seq;
          const marker = buf.indexOf(current.marker, start);
          if (marker < 0 || marker >= end) wrongAgent++;
          if (current.index >= 0) latency[current.index * subscribers + sub.index] = at - current.sentAt;
          current.received++;
          settleIfDone();
          return;
        }
        const connected = buf.indexOf(CONNECTED, start);
        if (connected >= 0 && connected < end && sub.ready) {
          sub.ready();
          sub.ready = undefined;
          return;
        }
        otherFrames++;
      };

      const onData = (sub, chunk) => {
        const at = performance.now();
        const buf = sub.pending ? Buffer.concat([sub.pending, chunk]) : chunk;
        let start = 0;
        for (;;) {
          const end = buf.indexOf(FRAME_END, start);
          if (end < 0) break;
          // `data:` frames only; comments (`: heartbeat`) start with a colon.
          if (buf[start] === 0x64) onFrame(sub, buf, start, end, at);
          start = end + 2;
        }
        // A copy, so a large chunk is not kept alive for its last few bytes.
        sub.pending = start < buf.length ? Buffer.from(buf.subarray(start)) : undefined;
      };

      const subscribe = (index) =>
        new Promise((resolve, reject) => {
          const sub = { index, lastSeen: -1, pending: undefined, ready: undefined, req: undefined, closing: false };
          const timer = setTimeout(
            () => reject(new Error(`subscriber ${index}: no server.connected within 10 s`)),
            10_000,
          );
          sub.ready = () => {
            clearTimeout(timer);
            resolve(sub);
          };
          sub.req = http.get({ host: '127.0.0.1', port, path: '/api/event', agent: subAgent }, (res) => {
            if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('text/event-stream')) {
              let body = '';
              res.setEncoding('utf8');
              res.on('data', (text) => (body += text));
              res.on('end', () => {
                clearTimeout(timer);
                reject(
                  new Error(`subscriber ${index}: GET /api/event answered ${res.statusCode} ${body.slice(0, 160)}`),
                );
              });
              return;
            }
            alive++;
            res.on('data', (chunk) => onData(sub, chunk));
            res.once('close', () => {
              alive--;
              if (!tearingDown && !sub.closing) dropped++;
              settleIfDone();
            });
          });
          sub.req.on('error', (error) => {
            clearTimeout(timer);
            reject(new Error(`subscriber ${index}: ${error.message}`));
          });
          subs.push(sub);
        });

      // The first subscriptions load and compile the stream's code: start-up, not a cost per subscriber.
      const warm = await Promise.all(Array.from({ length: 10 }, (_, i) => subscribe(-1 - i)));
      for (const sub of warm) {
        sub.closing = true;
        sub.req.destroy();
      }
      subs.length = 0;
      await sleep(1000);
      sim.assertAlive();
      const before = procStatus(sim.pid);

      // In batches, so the listen backlog never overflows into SYN retries that would only measure the kernel.
      const openStarted = performance.now();
      for (let i = 0; i < subscribers; i += 50) {
        scope.check();
        await Promise.all(Array.from({ length: Math.min(50, subscribers - i) }, (_, k) => subscribe(i + k)));
      }
      const openMs = performance.now() - openStarted;
      await sleep(1000);
      sim.assertAlive();
      const open = procStatus(sim.pid);
      const openAlive = alive;
      const rssMet = dropped === 0 && openAlive === subscribers && mib(open.rssKiB) < RSS_TARGET_MIB;
      scope.report(
        row(
          RSS,
          round(mib(open.rssKiB), 1),
          'MiB',
          `< ${RSS_TARGET_MIB} MiB`,
          rssMet,
          `VmRSS ${round(mib(before.rssKiB), 1)} MiB before, ${round(mib(open.rssKiB), 1)} MiB with ${openAlive} of ${subscribers} subscribers open (+${round((open.rssKiB - before.rssKiB) / subscribers, 1)} KiB each; VmHWM ${round(mib(open.hwmKiB), 1)} MiB), read 1 s after the last opened; opened in batches of 50 in ${round(openMs)} ms; ${context}` +
            (dropped ? `; FAILED: ${dropped} subscribers closed by the simulator while idle` : ''),
        ),
      );

      const answerMs = [];
      const failures = [];
      let seq = 0;
      const send = async (index) => {
        const which = AGENTS[seq % 2];
        let timer;
        const delivered = new Promise((resolve) => {
          current = { seq, index, marker: which.marker, received: 0, sentAt: 0, done: resolve };
          timer = setTimeout(() => resolve('timeout'), EVENT_TIMEOUT_MS);
        });
        seq++;
        const sentAt = performance.now();
        current.sentAt = sentAt;
        const answer = request(port, `/api/session/${SESSION_ID}/agent`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: which.body,
          agent: postAgent,
        }).then((a) => {
          answerMs.push(performance.now() - sentAt);
          return a;
        });
        const [{ status, body }, outcome] = await Promise.all([answer, delivered]);
        clearTimeout(timer);
        const got = current.received;
        current = undefined;
        if (status < 200 || status >= 300)
          failures.push(`POST …/agent ${which.agent} answered ${status} ${body.slice(0, 160)}`);
        if (outcome === 'timeout')
          failures.push(
            `event ${index < 0 ? 'warm-up' : index + 1}: ${got} of ${alive} subscribers had the frame after ${EVENT_TIMEOUT_MS / 1000} s`,
          );
      };

      for (let i = 0; i < WARM_EVENTS && failures.length === 0; i++) {
        scope.check();
        await send(-1);
      }
      answerMs.length = 0;
      const simCpuBefore = procCpuMs(sim.pid);
      const ownCpuBefore = process.cpuUsage();
      const eventsStarted = performance.now();
      let sent = 0;
      for (let i = 0; i < events && failures.length === 0; i++) {
        scope.check();
        await send(i);
        sent++;
      }
      const eventsMs = performance.now() - eventsStarted;
      const ownCpu = process.cpuUsage(ownCpuBefore);
      const simCpuMs = procCpuMs(sim.pid) - simCpuBefore;
      const ownCpuMs = (ownCpu.user + ownCpu.system) / 1000;
      await sleep(200);
      sim.assertAlive();
      const after = procStatus(sim.pid);

      const all = Array.from(latency.subarray(0, sent * subscribers))
        .filter((x) => !Number.isNaN(x))
        .sort((a, b) => a - b);
      const lastPerEvent = [];
      const firstPerEvent = [];
      for (let i = 0; i < sent; i++) {
        let last = -Infinity;
        let first = Infinity;
        for (let s = 0; s < subscribers; s++) {
          const x = latency[i * subscribers + s];
          if (x > last) last = x;
          if (x < first) first = x;
        }
        if (last > -Infinity) lastPerEvent.push(last);
        if (first < Infinity) firstPerEvent.push(first);
      }
      lastPerEvent.sort((a, b) => a - b);
      firstPerEvent.sort((a, b) => a - b);
      answerMs.sort((a, b) => a - b);
      const expectedFrames = sent * subscribers;
      if (all.length !== expectedFrames)
        failures.push(`${expectedFrames - all.length} of ${expectedFrames} frames missing`);
      if (sent < events) failures.push(`stopped after ${sent} of ${events} events`);
      if (dropped) failures.push(`${dropped} subscribers closed by the simulator`);
      if (duplicates) failures.push(`${duplicates} frames delivered twice`);
      if (wrongAgent) failures.push(`${wrongAgent} frames naming the wrong agent`);
      if (stray) failures.push(`${stray} agent-switched frames outside any request`);
      const failed = failures.length ? `; FAILED: ${failures.slice(0, 4).join('; ')}` : '';
      const p = (q) => round(percentile(all, q), 1);
      const setup = `${sent} agent switches (POST /api/session/…/agent, plan/build alternating, one session.next.agent.switched frame each) to ${subscribers} subscribers, one at a time after ${WARM_EVENTS} warm-up ones; client and simulator share the 2 cores`;
      scope.report(
        row(
          LATENCY,
          p(99),
          'ms',
          `≤ ${P99_TARGET_MS} ms`,
          failures.length === 0 && p(99) <= P99_TARGET_MS,
          `over ${all.length} (event, subscriber) pairs: p50 ${p(50)} ms, p99 ${p(99)} ms, max ${p(100)} ms; the POST's own 204 p50 ${round(percentile(answerMs, 50), 1)} ms; ${setup}; ${otherFrames} other frames; VmRSS after ${round(mib(after.rssKiB), 1)} MiB; ${context}${failed}`,
        ),
      );
      scope.report(
        row(
          LAST,
          round(percentile(lastPerEvent, 99), 1),
          'ms',
          NO_TARGET,
          failures.length === 0,
          `time from a request to its frame reaching the last of ${subscribers} subscribers, over ${lastPerEvent.length} events: p50 ${round(percentile(lastPerEvent, 50), 1)} ms, p99 ${round(percentile(lastPerEvent, 99), 1)} ms, max ${round(percentile(lastPerEvent, 100), 1)} ms (the first subscriber's: p50 ${round(percentile(firstPerEvent, 50), 1)} ms); during the ${round(eventsMs)} ms of events the simulator used ${round(simCpuMs)} ms of CPU and this client ${round(ownCpuMs)} ms${failed}`,
        ),
      );
    },
  );
}

await runIfMain(import.meta.url, measure);
