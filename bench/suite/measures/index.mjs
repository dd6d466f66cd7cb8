// The measures half of the suite: start-up, partitions, event fan-out, replay loading, agent turns, a turn's
// prompt to idle on the event stream, one advance over thousands of queued prompts, a PTY's WebSocket echo
// and msw, each against its target; then one turn on the real runtime beside the simulator, for information.
// They run one after another because they share two cores with the simulator they measure.
// Usage: node bench/suite/measures/index.mjs [--quick], or runMeasures({ quick }) from the suite's runner.
import { runIfMain } from './lib.mjs';
import { measure as events } from './events.mjs';
import { measure as msw } from './msw.mjs';
import { measure as partitions } from './partitions.mjs';
import { measure as queuedAdvance } from './queued-advance.mjs';
import { measure as ptyEcho } from './pty-echo.mjs';
import { measure as realTurn } from './real-turn.mjs';
import { measure as replayLoad } from './replay-load.mjs';
import { measure as startup } from './startup.mjs';
import { measure as turnIdle } from './turn-idle.mjs';
import { measure as turns } from './turns.mjs';

export const MEASURES = [
  { name: 'startup', measure: startup },
  { name: 'partitions', measure: partitions },
  { name: 'events', measure: events },
  { name: 'replay-load', measure: replayLoad },
  { name: 'turns', measure: turns },
  { name: 'turn-idle', measure: turnIdle },
  { name: 'queued-advance', measure: queuedAdvance },
  { name: 'pty-echo', measure: ptyEcho },
  { name: 'msw', measure: msw },
  { name: 'real-turn', measure: realTurn },
];

/**
 * Runs every measure in turn; each row is `{ name, value, unit, target, met, detail }`. A measure that fails
 * or hangs still gives its rows (met: false, the reason in detail), and the others still run.
 */
export async function runMeasures({ quick = false } = {}) {
  const rows = [];
  for (const { name, measure } of MEASURES) {
    try {
      rows.push(...(await measure({ quick })));
    } catch (error) {
      rows.push({ name, value: NaN, unit: '', target: '', met: false, detail: `failed: ${error?.message ?? error}` });
    }
  }
  return rows;
}

await runIfMain(import.meta.url, runMeasures);
