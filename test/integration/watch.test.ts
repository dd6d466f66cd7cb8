/**
 * `watch`: edits to the served scenario file restart the world of every partition serving it; a broken edit
 * is refused with its file:line:col and the last good world keeps serving. File edits are real, so waits
 * are on wall time, by polling for the condition.
 */
import { copyFileSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/control/journal.js';
import type { SimulatorHandle } from '../../src/handle/simulator-handle.js';
import { watchScenarioFile } from '../../src/scenarios/watch.js';
import { startSimulator } from '../../src/hosts/start-simulator.js';

const SHIPPED = fileURLToPath(new URL('../../scenarios/forms-settling.yaml', import.meta.url));
const FIRST_FORM = 'Set up the new settings page';

let sim: SimulatorHandle | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** A copy of a shipped scenario to edit (the name must stay the file's name). */
function scenarioCopy(): { file: string; text: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'sim-watch-')), 'forms-settling.yaml');
  copyFileSync(SHIPPED, file);
  return { file, text: readFileSync(file, 'utf8') };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function controlEntry(
  handle: SimulatorHandle,
  action: 'reload' | 'reload.failed',
  matching: RegExp = /./,
): Promise<JournalEntry> {
  return until(`a ${action} in the journal`, async () =>
    (await handle.journal()).find((e) => e.action === action && matching.test(e.detail ?? '')),
  );
}

async function formTitles(handle: SimulatorHandle): Promise<string[]> {
  const body = (await (await fetch(`${handle.url}/api/form/request`)).json()) as { data: Array<{ title: string }> };
  return body.data.map((f) => f.title);
}

describe('watch', () => {
  it('keeps the last good world through broken edits, naming file:line:col, and restarts it on a good one', async () => {
    const { file, text } = scenarioCopy();
    const lines: string[] = [];
    sim = await startSimulator({ scenario: file, watch: true, log: (line) => lines.push(line) });
    const start = await sim.clock.now();
    // Move the world on, so a restart shows: the form that appears at 10 s is there.
    await sim.clock.advance('10s');
    expect(await formTitles(sim)).toHaveLength(3);

    // Bad YAML: an unclosed flow sequence.
    writeFileSync(file, text.replace('sessions:\n', 'sessions: [\n'));
    const yaml = await controlEntry(sim, 'reload.failed');
    expect(yaml.detail).toMatch(new RegExp(`^${escape(file)}:\\d+:\\d+: YAML: `));
    expect(await sim.clock.now()).toBe(start + 10_000);
    expect(await formTitles(sim)).toHaveLength(3);

    // A format error: the place is the line of the mistake.
    const wrongMode = text.replace('    mode: url\n', '    mode: link\n');
    const line = wrongMode.split('\n').indexOf('    mode: link') + 1;
    writeFileSync(file, wrongMode);
    const format = await controlEntry(sim, 'reload.failed', new RegExp(`:${line}:\\d+: `));
    expect(format.detail).toBe(`${file}:${line}:11: forms[1].mode must be one of "form", "url", got "link".`);
    expect(await sim.clock.now()).toBe(start + 10_000);
    expect(await formTitles(sim)).toHaveLength(3);
    expect(lines.join('\n')).toContain(`${file}:${line}:`);

    // A good edit: the world starts again from the new text, and subscribers of the event stream are told.
    const stream = await fetch(`${sim.url}/api/event`);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    let streamed = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        streamed += new TextDecoder().decode(value);
        if (streamed.includes('global.disposed')) return;
      }
    })();
    writeFileSync(
      file,
      text.replace(`title: ${FIRST_FORM}\n    mode: form`, 'title: Set up the NEW settings page\n    mode: form'),
    );
    const reload = await controlEntry(sim, 'reload');
    expect(reload).toMatchObject({ kind: 'control', action: 'reload', detail: `forms-settling from ${file}` });
    expect(await sim.clock.now()).toBe(start);
    expect(await formTitles(sim)).toEqual(['Set up the NEW settings page', 'Pick a reviewer']);
    expect(lines.some((l) => l.startsWith('watch: reloaded forms-settling'))).toBe(true);
    await reading;
    await reader.cancel();
    const disposed = streamed.split('\n').find((l) => l.includes('global.disposed')) ?? '';
    expect(JSON.parse(disposed.slice('data: '.length))).toMatchObject({
      type: 'global.disposed',
      data: {},
      metadata: { reason: 'reload', detail: `forms-settling from ${file}` },
    });
  }, 10_000);

  it('reloads a file an editor saves by renaming a new one over it, in every partition serving it', async () => {
    const { file, text } = scenarioCopy();
    sim = await startSimulator({ scenario: file, watch: true });
    const worker = sim.partition('worker-a');
    const other = sim.partition('worker-b');
    expect(await formTitles(worker)).toContain(FIRST_FORM);
    await other.useScenario('busy-session');

    const next = `${file}.tmp`;
    writeFileSync(
      next,
      text.replace(`title: ${FIRST_FORM}\n    mode: form`, 'title: Renamed into place\n    mode: form'),
    );
    renameSync(next, file);
    await controlEntry(worker, 'reload');
    expect(await formTitles(worker)).toContain('Renamed into place');
    expect(await formTitles(sim)).toContain('Renamed into place');
    // A partition that switched to another scenario is not this file's to restart.
    expect((await other.state()).scenario).toBe('busy-session');
    expect((await other.journal()).some((e) => e.action !== undefined)).toBe(false);
  }, 10_000);

  it('reads again a file edited while the server was starting', async () => {
    const { file, text } = scenarioCopy();
    const loadedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 10));
    writeFileSync(file, text.replace('    mode: url\n', '    mode: link\n'));
    const problems: string[][] = [];
    const stop = watchScenarioFile(
      file,
      {
        load: () => {
          throw new Error('unreachable');
        },
        reloaded: () => {},
        failed: (p) => problems.push(p),
      },
      { loadedAt },
    );
    try {
      await until('the edit to be read', async () => problems[0]);
      expect(problems).toEqual([[`${file}: unreachable`]]);
    } finally {
      stop();
    }
    // Written before loading, it is what was loaded: nothing to read again.
    const quiet: string[][] = [];
    const stopQuiet = watchScenarioFile(
      file,
      {
        load: () => {
          throw new Error('unreachable');
        },
        reloaded: () => {},
        failed: (p) => quiet.push(p),
      },
      { loadedAt: Date.now() + 5 },
    );
    await new Promise((resolve) => setTimeout(resolve, 250));
    stopQuiet();
    expect(quiet).toEqual([]);
  });

  it('ignores watch for a scenario given as an object, saying so', async () => {
    const lines: string[] = [];
    sim = await startSimulator({
      scenario: { name: 'inline', sessions: [] },
      watch: true,
      log: (line) => lines.push(line),
    });
    expect(lines).toEqual(['watch: nothing to watch (a scenario given as an object has no file)']);
  });

  it('stops watching when the simulator closes', async () => {
    const { file, text } = scenarioCopy();
    const lines: string[] = [];
    const closing = await startSimulator({ scenario: file, watch: true, log: (line) => lines.push(line) });
    await closing.close();
    const before = lines.length;
    writeFileSync(file, text.replace('sessions:\n', 'sessions: [\n'));
    // Nothing can be polled for here: give the debounce several times its length to (not) fire.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(lines.slice(before)).toEqual([]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
