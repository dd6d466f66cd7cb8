/**
 * `GET /__sim/live`: a partition's log as server-sent events, for the inspector (and anyone who would rather
 * listen than poll). The first frame says where things stand (the journal, the recent events and control
 * actions, the clock); then every entry the log takes is one frame, as it happens.
 *
 * Frames (each one JSON `data:` line):
 *   {"type":"hello", partition, scenario, now, iso, realTime, lastSeq, journal: JournalEntry[],
 *    entries: (DomainEvent | ControlEntry)[], reloadProblem: string | null}
 *   {"type":"entry", entry: LogEntry}   an exchange is sent as its journal line (with `changes`, what it
 *                                       made happen), marked `kind: "exchange"`
 */
import type { ControlEntry, LogEntry } from '../state/log.js';
import { createSseChannel, SSE_HEADERS } from '../http/sse.js';
import type { Answer } from '../exchange/exchange.js';
import type { Partition } from './partitions.js';
import { createStreamQuota, type StreamQuota } from '../stream/stream-quota.js';

/** How much of the log the hello frame carries: enough to fill the events panel, small enough to send at once. */
export const HELLO_ENTRIES = 500;
export const KEEP_ALIVE_MS = 15_000;
/**
 * An advance that fires many transitions writes its frames in one go, before the page reads any: allow
 * a burst well past the API stream's buffer. A page dropped anyway reconnects and starts from a new hello.
 */
const MAX_QUEUED = 2000;

/** Inspector pages open at once, over all partitions: a person has a few tabs, a loop opening them has a bug. */
export const MAX_LIVE_STREAMS = 32;
/** A hello frame (always let in, however large) carries the journal and recent events; room for a burst after it. */
const MAX_QUEUED_BYTES = 1024 * 1024;

export function createLiveQuota(): StreamQuota {
  return createStreamQuota(
    'inspector streams',
    MAX_LIVE_STREAMS,
    'Close inspector tabs you no longer look at (each holds one GET /__sim/live stream)',
  );
}

/** `scrub` masks the secret values clients sent, wherever the world or its events hold them. */
export function liveAnswer(
  partition: Partition,
  quota: StreamQuota,
  scrub: (text: string) => string = (text) => text,
): Answer {
  quota.claim();
  const channel = createSseChannel({ maxQueued: MAX_QUEUED, maxQueuedBytes: MAX_QUEUED_BYTES });
  quota.hold(channel);
  const send = (frame: unknown) => channel.send(scrub(JSON.stringify(frame)));
  const log = partition.engine.log;
  const retained = log.entries();
  const entries = retained.filter((e) => e.kind !== 'exchange').slice(-HELLO_ENTRIES);
  send({
    type: 'hello',
    partition: partition.name,
    scenario: partition.engine.scenario?.name ?? null,
    now: partition.engine.clock.now(),
    iso: new Date(partition.engine.clock.now()).toISOString(),
    realTime: partition.engine.clock.realTime,
    lastSeq: log.lastSeq,
    journal: partition.journal.entries(),
    entries,
    reloadProblem: reloadProblem(retained),
  });

  // The journal already pairs an exchange with what it changed: its lines are the exchanges sent here. The
  // journal reads the log before this does, so every frame still goes out in the log's order.
  const unsubscribeLines = partition.journal.subscribe((line) => {
    if (line.action === undefined) send({ type: 'entry', entry: { kind: 'exchange', ...line } });
  });
  const unsubscribeLog = log.subscribe((entry: LogEntry) => {
    if (entry.kind !== 'exchange') send({ type: 'entry', entry });
  });
  // Wall time, not virtual: it keeps proxies and the browser from timing the connection out.
  const keepAlive = setInterval(() => channel.comment('keep-alive'), KEEP_ALIVE_MS);
  keepAlive.unref();
  channel.onClose(() => {
    clearInterval(keepAlive);
    unsubscribeLines();
    unsubscribeLog();
  });
  return { kind: 'stream', status: 200, headers: { ...SSE_HEADERS }, stream: channel.stream };
}

/** The problem of the last refused reload, unless a good reload, a reset or a switch came after it. */
function reloadProblem(entries: LogEntry[]): string | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i] as LogEntry;
    if (entry.kind !== 'control') continue;
    const action: ControlEntry['action'] = entry.action;
    if (action === 'reload.failed') return entry.detail ?? 'The scenario file was changed and does not load';
    if (action === 'reload' || action === 'reset' || action === 'scenario') return null;
  }
  return null;
}
