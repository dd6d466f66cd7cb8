/**
 * A scenario read again at another start (`--real-time`): every instant keeps its distance from the start, a
 * date-time it wrote included; a pinned start stays.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';
import { loadScenarioObject, parseScenario, rebaseScenario } from '../../../src/scenarios/load-scenario.js';
import { DEFAULT_START } from '../../../src/state/clock.js';

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

const HOUR = 3_600_000;
const DEFAULT_FILE = fileURLToPath(new URL('../../../scenarios/default.yaml', import.meta.url));

describe('rebaseScenario', () => {
  it('moves every instant of the default scenario by the same amount, and nothing else', () => {
    const written = parseScenario(readFileSync(DEFAULT_FILE, 'utf8'), DEFAULT_FILE, spec);
    const moved = rebaseScenario(written, DEFAULT_START + 5 * HOUR, spec);
    expect(moved.start).toBe(DEFAULT_START + 5 * HOUR);
    const [before, after] = [written, moved].map((d) => d.sessions.map((s) => s.messages.map((m) => m.time.created)));
    expect(after).toEqual(before?.map((times) => times.map((t) => t + 5 * HOUR)));
    expect(moved.shells.map((s) => s.started)).toEqual(written.shells.map((s) => s.started + 5 * HOUR));
    // The seeded content is the same: only times (and the ids made from them) move.
    expect(moved.sessions.map((s) => s.messages.length)).toEqual(written.sessions.map((s) => s.messages.length));
    expect(moved.rules).toHaveLength(written.rules.length);
  });

  it('moves a date-time written in a scenario without a start', () => {
    const written = loadScenarioObject(
      { name: 'dated', shells: [{ id: 'sh_1', command: 'x', starts: new Date(DEFAULT_START - HOUR).toISOString() }] },
      spec,
    );
    expect(written.shells[0]?.started).toBe(DEFAULT_START - HOUR);
    expect(rebaseScenario(written, 1_000 * HOUR, spec).shells[0]?.started).toBe(999 * HOUR);
  });

  it('leaves a scenario that pins its start as written', () => {
    const pinned = loadScenarioObject({ name: 'pinned', start: '2026-01-05T12:00:00Z' }, spec);
    expect(pinned.pinnedStart).toBe(true);
    expect(rebaseScenario(pinned, DEFAULT_START + HOUR, spec)).toBe(pinned);
  });
});
