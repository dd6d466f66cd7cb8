/**
 * scenario-from for plugins: a recorded `GET /api/plugin` is the list as it stood; without one, the
 * `plugin.added` events a server announces its plugins with when it starts; with neither, nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Step, TimedEvent, Timeline } from '../../../../src/derive/timeline.js';
import { inferPlugins } from '../../../../src/kinds/plugin/infer.js';

const LOCATION = { directory: '/srv/demo' };

function listed(ids: string[]): Step {
  return {
    seq: 1,
    at: 10,
    durationMs: 2,
    method: 'GET',
    path: '/api/plugin',
    operation: { operationId: 'v2.plugin.list' } as Step['operation'],
    params: {},
    query: {},
    body: undefined,
    status: 200,
    answer: { location: LOCATION, data: ids.map((id) => ({ id })) },
    answerProblems: [],
    stream: false,
    interaction: {} as Step['interaction'],
  };
}

const added = (id: string, at: number): TimedEvent => ({ at, type: 'plugin.added', data: { id }, seq: 2 });

describe('inferPlugins', () => {
  it('takes the recorded list whole, in its order', () => {
    const timeline: Timeline = { origin: 0, steps: [listed(['agent', 'shell'])], events: [added('other', 5)] };
    expect(inferPlugins(timeline)).toEqual({
      plugins: [{ value: ['agent', 'shell'], from: [timeline.steps[0]], whole: true }],
    });
  });

  it('falls back on the plugin.added events, each id once, and says so', () => {
    const events = [added('agent', 1), added('shell', 2), added('agent', 3)];
    const inferred = inferPlugins({ origin: 0, steps: [], events });
    expect(inferred.plugins).toEqual([
      {
        value: ['agent', 'shell'],
        from: [],
        whole: true,
        events: [events[0]],
        note: 'from 3 plugin.added events (GET /api/plugin was not recorded)',
      },
    ]);
  });

  it('infers nothing from a recording that shows no plugin', () => {
    expect(inferPlugins({ origin: 0, steps: [], events: [] })).toEqual({});
  });
});
