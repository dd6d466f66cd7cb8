/**
 * Shell commands from traffic (scenario-from, the shell kind's part): seen running and then finished or
 * timed out. The command's own records say when it started and ended; a recorded `shell.exited` event says
 * how it ended when no record showed it.
 */
import type { TimedEvent, Timeline } from '../inference.js';
import {
  dataOf,
  formatDuration,
  instant,
  isObject,
  trusted,
  type Inferred,
  type JsonObject,
  type Part,
} from '../inference.js';

export function inferShells(timeline: Timeline): Inferred {
  return { shells: shellsOf(timeline) };
}

function shellsOf(timeline: Timeline): Part[] {
  const reads = timeline.steps.filter(
    (s) =>
      (s.operation?.operationId === 'v2.shell.get' || s.operation?.operationId === 'v2.shell.timeout') &&
      trusted(s) &&
      s.status === 200,
  );
  const ids = [...new Set(reads.map((s) => s.params.id as string))];
  return ids.map((id): Part => {
    const mine = reads.filter((s) => s.params.id === id);
    const records = mine.map((s) => dataOf(s) as JsonObject);
    const first = records[0] as JsonObject;
    const last = records[records.length - 1] as JsonObject;
    const started = (first.time as JsonObject).started as number;
    const value: JsonObject = { id, command: first.command, cwd: first.cwd, shell: first.shell };
    if (typeof first.pid === 'number') value.pid = first.pid;
    if (typeof first.file === 'string') value.file = first.file;
    if (isObject(first.metadata) && Object.keys(first.metadata).length) value.metadata = first.metadata;
    value.starts = instant(started, timeline.origin);
    const events: TimedEvent[] = [];
    const notes: string[] = [];
    const exited = timeline.events.find((e) => e.type === 'shell.exited' && e.data.id === id);
    const completed =
      ((last.time as JsonObject).completed as number | undefined) ?? (exited ? timeline.origin + exited.at : undefined);
    const status = last.status !== 'running' ? last.status : exited?.data.status;
    if (exited) events.push(exited);
    if (completed !== undefined && status === 'exited') {
      value.completes = {
        after: formatDuration(completed - started),
        exit: (last.exit as number | undefined) ?? (exited?.data.exit as number | undefined) ?? 0,
      };
    } else if (completed !== undefined && status === 'timeout') {
      // A timeout the client set is replayed by its own PATCH; one the command had from the start is the scenario's.
      const patched = mine.some(
        (s) => s.operation?.operationId === 'v2.shell.timeout' && timeline.origin + s.at < completed,
      );
      if (!patched) {
        value.timeout = Math.max(1, completed - started);
        notes.push(
          `timeout: seen running${records.findIndex((r) => r.status !== 'running') > 0 ? ', then timeout' : ''}; it fired at ${formatDuration(completed - timeline.origin)}`,
        );
      }
    }
    return { value, from: mine, events, note: notes.join('\n') || undefined };
  });
}
