/**
 * A PTY's WebSocket as the real server serves it, bound to the partition's world: on connect the output kept
 * from the client's cursor (everything when it sends none, nothing for -1 or a cursor past the end) as one
 * text frame, then one binary frame `0x00` + `{"cursor":N}` (N characters printed so far), then what the
 * terminal prints as it prints it. What the client sends is typed into the terminal; the world decides what
 * that prints (`typeInto`), and every connection to the PTY reads it from the partition's log. The connection
 * closes (1000) when the PTY exits or is removed; one opened on an exited PTY is closed at once (4404).
 */
import type { Answer, MessageHandlers, MessageSocket } from '../../exchange/exchange.js';
import { draft, type EventCause, type EventDraft } from '../../state/events.js';
import { WORLD_RESETS } from '../../state/log.js';
import type { Engine } from '../../state/engine.js';
import { typeInto } from './terminal.js';
import type { PtyState } from './types.js';

/** The close a client gets when the world it was connected to restarts (a reset, a scenario switch). */
const RESTARTED = { code: 1012, reason: 'the simulated world restarted' } as const;
const EXITED = { code: 4404, reason: 'session exited' } as const;

const NOTHING: MessageHandlers = { message() {}, closed() {} };

/** Where a connection's replay starts, from the `cursor` query as the real server reads it. */
export function replayFrom(cursor: unknown, end: number): number {
  if (cursor === undefined || cursor === '') return 0;
  const n = Number(cursor);
  if (!Number.isInteger(n)) return 0;
  return n < 0 ? end : n;
}

/** The binary frame that ends the replay: a zero byte, then `{"cursor":N}`. */
export function cursorFrame(end: number): Uint8Array {
  return Buffer.concat([Buffer.from([0]), Buffer.from(JSON.stringify({ cursor: end }), 'utf8')]);
}

/** What typing `text` into the PTY makes happen: its output, and its exit if that ended it. */
export function typed(pty: PtyState, text: string, now: number): EventDraft[] {
  const id = pty.definition.record.id;
  const result = typeInto(pty.definition.script, pty.terminal, text, { now });
  const drafts: EventDraft[] = [];
  const before = pty.terminal;
  const after = result.terminal;
  const changed =
    after.line !== before.line ||
    after.cwd !== before.cwd ||
    after.status !== before.status ||
    after.escape !== before.escape;
  if (result.output || changed)
    drafts.push(draft('pty.output', { id, output: result.output, terminal: result.terminal }));
  if (result.exitCode !== undefined) drafts.push(draft('pty.exited', { id, exitCode: result.exitCode }));
  return drafts;
}

/** The 101 answer whose connection serves the PTY `id` of the partition's world as it is now. */
export function connectAnswer(
  partition: { readonly engine: Engine },
  id: string,
  cursor: unknown,
  requestID: string,
): Answer {
  return {
    kind: 'upgrade',
    status: 101,
    open: (socket) => attach(partition, id, cursor, { socket: requestID }, socket),
  };
}

function attach(
  partition: { readonly engine: Engine },
  id: string,
  cursor: unknown,
  cause: EventCause,
  socket: MessageSocket,
): MessageHandlers {
  const world = partition.engine.world;
  const pty = world?.ptys.get(id);
  if (!world || !pty || pty.status !== 'running') {
    socket.close(EXITED.code, EXITED.reason);
    return NOTHING;
  }
  const end = pty.dropped + pty.output.length;
  const from = Math.max(replayFrom(cursor, end), pty.dropped);
  if (from < end) socket.sendText(pty.output.slice(from - pty.dropped));
  socket.sendBinary(cursorFrame(end));
  partition.engine.commit([draft('pty.connected', { id })], cause);
  // The world this connection belongs to: once the partition serves another, it has nothing left to show.
  const current = () => partition.engine.world === world && world.ptys.has(id);
  const stop = partition.engine.log.subscribe((entry) => {
    if (entry.kind === 'control') {
      if (WORLD_RESETS.has(entry.action)) socket.close(RESTARTED.code, RESTARTED.reason);
      return;
    }
    if (entry.kind !== 'event' || (entry.data as { id?: unknown }).id !== id) return;
    if (entry.type === 'pty.output') socket.sendText(entry.data.output);
    else if (entry.type === 'pty.exited' || entry.type === 'pty.deleted') socket.close();
  });
  return {
    message(text) {
      if (!current()) {
        socket.close(RESTARTED.code, RESTARTED.reason);
        return;
      }
      // In real-time mode the clock moved while the client typed: what fell due happens first.
      partition.engine.clock.settle();
      const now = world.ptys.get(id);
      if (now?.status !== 'running') return;
      partition.engine.commit(typed(now, text, partition.engine.clock.now()), cause);
    },
    closed() {
      stop();
      if (current()) partition.engine.commit([draft('pty.disconnected', { id })], cause);
    },
  };
}
