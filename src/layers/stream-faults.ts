/**
 * An event stream that goes wrong on purpose: a rule's `then.stream`. Whatever stream answers (the partition's
 * subscription, a session's `/event`, an upstream's stream, a recording's) goes out through the faults, so a
 * frontend's reconnect logic meets them in every mode:
 *
 * - `latency` and `jitter`: each frame waits before it goes on, the jitter drawn from a sequence seeded by the
 *   rule and its use, so a run is the same each time;
 * - `retry`: an SSE `retry:` field first, the reconnection delay a client starts from;
 * - after `afterFrames` events (data frames; heartbeat comments pass but are not counted): `stall` (silence on
 *   an open connection), `cut` (half the next event, then the connection closes) or `drop` (it closes).
 *
 * A cut or a drop ends the connection without the chunked answer's last chunk: the client sees a failed
 * stream, never a clean end. That matters: the official client's SSE loop reconnects after a failure but
 * treats a clean end as the end of the subscription.
 */
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Answer } from '../exchange/exchange.js';
import type { RuleSubject } from './layer.js';
import type { StreamFault } from '../scenarios/definition.js';
import { createRandom, type Random } from '../state/random.js';
import { realWait, type Wait } from './rules.js';

/** The error a cut or a drop ends the answer with, so the connection closes rather than ends. */
export class StreamFaultCut extends Error {
  constructor(fault: string) {
    super(`event stream ${fault} (a rule's stream fault)`);
  }
}

/** The answer's stream through the faults a rule left on the request; any other answer as it is. */
export function withStreamFault(answer: Answer, subject: RuleSubject, wait: Wait = realWait): Answer {
  const left = subject.streamFault;
  const fault = left?.rule.stream;
  if (!left || !fault || answer.kind !== 'stream') return answer;
  const { rule, use } = left;
  const seed = `${subject.partition.engine.scenario?.seed ?? subject.partition.name}:${rule.where}:${use}`;
  return {
    ...answer,
    stream: faultyStream(answer.stream, fault, { random: createRandom(seed), wait }),
    rule: rule.where,
    ...(rule.outsideSpec ? { outsideSpec: true as const } : {}),
  };
}

export function faultyStream(
  source: NodeJS.ReadableStream,
  fault: StreamFault,
  { random, wait }: { random: Random; wait: Wait },
): Readable {
  let stopped = false;
  let wanted = false;
  let resume: (() => void) | undefined;
  const out = new Readable({
    highWaterMark: 0,
    read() {
      wanted = true;
      const go = resume;
      resume = undefined;
      go?.();
    },
    destroy(error, callback) {
      stopped = true;
      (source as Readable).destroy?.();
      resume?.();
      callback(error);
    },
  });
  /** Resolves once the consumer has taken `text`: what a cut sends must be out before the connection closes. */
  const send = async (text: string) => {
    if (stopped) return;
    wanted = false;
    if (out.push(text) || wanted) return;
    await new Promise<void>((resolve) => (resume = resolve));
  };
  const pace = async () => {
    const ms = fault.latency + Math.floor(random.next() * fault.jitter);
    if (ms > 0) await wait(ms);
  };
  const close = (what: string) => {
    // A turn of the event loop for the last bytes to leave the socket before it closes.
    setImmediate(() => out.destroy(new StreamFaultCut(what)));
  };

  void (async () => {
    if (fault.retry !== undefined) await send(`retry: ${fault.retry}\n\n`);
    let events = 0;
    let stalled = false;
    const due = () => fault.fault !== undefined && events >= fault.afterFrames;
    if (due() && fault.fault === 'drop') return close('dropped');
    if (due() && fault.fault === 'stall') stalled = true;
    const decoder = new StringDecoder('utf8');
    let carry = '';
    for await (const chunk of source as AsyncIterable<Buffer | string>) {
      if (stopped) return;
      carry += typeof chunk === 'string' ? chunk : decoder.write(chunk);
      for (let end = frameEnd(carry); end > 0; end = frameEnd(carry)) {
        const frame = carry.slice(0, end);
        carry = carry.slice(end);
        // A stalled stream still reads what comes, so its source does not count it as a slow consumer.
        if (stalled) continue;
        const event = /(^|\n)data:/.test(frame);
        await pace();
        if (event && due() && fault.fault === 'cut') {
          await send(frame.slice(0, Math.ceil(frame.length / 2)));
          return close('cut mid-frame');
        }
        await send(frame);
        if (!event) continue;
        events++;
        if (due() && fault.fault === 'drop') return close('dropped');
        if (due() && fault.fault === 'stall') stalled = true;
      }
    }
    // The source ended (a shutdown, a reset): so does the answer, stalled or not.
    if (!stalled && carry) await send(carry);
    if (!stopped) out.push(null);
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}

/** Where the first whole frame ends (after its blank line), or 0 when none is whole yet. */
function frameEnd(text: string): number {
  const lf = text.indexOf('\n\n');
  const crlf = text.indexOf('\r\n\r\n');
  if (lf < 0) return crlf < 0 ? 0 : crlf + 4;
  return crlf < 0 || lf + 2 < crlf + 4 ? lf + 2 : crlf + 4;
}
