/**
 * The scenario format's `project`, instants (`shells[].starts`, `attempts[].created` as a duration or a
 * date-time) and shells' `file` and `metadata`: as loaded, as refused (each problem at its place), and the
 * world they make at the start.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ScenarioError } from '../../../src/scenarios/definition.js';
import { loadScenarioObject, parseScenario } from '../../../src/scenarios/load-scenario.js';
import { projectContext } from '../../../src/openapi/location.js';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';
import { scenarioProblems } from '../../support/scenario-problems.js';
import { createWorld } from '../../../src/state/world.js';
import { KINDS } from '../../../src/kinds/registry.js';

const START = Date.parse('2026-11-22T09:00:00Z');
const INSTANT =
  'must be a duration from the start (250ms, 30s, 1m30s, or milliseconds as a number) or an ISO 8601 date-time (2026-11-22T08:59:30.125Z)';

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

const problems = (text: string) => scenarioProblems(spec, text);

function objectProblems(value: unknown): string[] {
  try {
    loadScenarioObject(value, spec);
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('project', () => {
  it('is loaded with its id, or the id --project-dir would derive from the directory', () => {
    expect(parseScenario('name: demo\nproject: { directory: /srv/app, id: abc123 }\n', '<test>', spec).project).toEqual(
      { directory: '/srv/app', id: 'abc123' },
    );
    expect(parseScenario('name: demo\nproject: { directory: /srv/app/ }\n', '<test>', spec).project).toEqual(
      projectContext('/srv/app'),
    );
    expect(parseScenario('name: demo\n', '<test>', spec).project).toBeUndefined();
  });

  it('gives the scenario PTYs its directory as their default cwd', () => {
    const scenario = parseScenario(
      'name: demo\nproject: { directory: /srv/app }\nptys: [{ id: pty_1 }, { id: pty_2, cwd: /tmp }]\n',
      '<test>',
      spec,
    );
    expect(scenario.ptys.map((p) => p.record.cwd)).toEqual(['/srv/app', '/tmp']);
  });

  it('refuses a relative directory, an empty id and an unknown field, each at its place', () => {
    expect(problems('name: demo\nproject:\n  directory: srv/app\n  id: ""\n  name: app\n')).toEqual([
      '3:14 project.directory must be an absolute path (starting with /)',
      '4:7 project.id must NOT have fewer than 1 characters',
      '5:3 project: unknown field "name". Fields here: directory, id.',
    ]);
    expect(objectProblems({ name: 'demo', project: { id: 'x' } })).toEqual(['project: missing field "directory"']);
    expect(objectProblems({ name: 'demo', project: { directory: './app' } })).toEqual([
      'project.directory: must be an absolute path (starting with /)',
    ]);
  });
});

describe('instants', () => {
  it('read a duration from the start and a date-time as itself, before the start included', () => {
    const scenario = loadScenarioObject(
      {
        name: 'demo',
        shells: [
          {
            id: 'sh_early',
            command: 'npm run dev',
            starts: '2026-11-22T08:58:00Z',
            timeout: 300_000,
            completes: { after: '10m' },
          },
          { id: 'sh_later', command: 'npm test', starts: '20s' },
          { id: 'sh_ms', command: 'npm test', starts: 1500 },
        ],
        integrations: [{ id: 'openai', name: 'OpenAI' }],
        attempts: [
          { id: 'con_early', integrationID: 'openai', created: '2026-11-22T08:55:00.125Z' },
          { id: 'con_later', integrationID: 'openai', created: '1m', expires: '2m' },
        ],
      },
      spec,
    );
    const early = Date.parse('2026-11-22T08:58:00Z');
    expect(scenario.shells.map((s) => s.started)).toEqual([early, START + 20_000, START + 1500]);
    // Its timeout and completion count from its own start.
    expect(scenario.shells[0]).toMatchObject({
      deadline: early + 300_000,
      completes: { at: early + 600_000, exit: 0 },
    });
    const created = Date.parse('2026-11-22T08:55:00.125Z');
    expect(scenario.attempts.map((a) => [a.created, a.expires])).toEqual([
      [created, created + 600_000],
      [START + 60_000, START + 180_000],
    ]);
  });

  it('refuse what is neither a duration nor a date-time, once per value, at its place', () => {
    const text =
      'name: demo\nshells:\n  - { id: sh_1, command: x, starts: tomorrow }\n  - { id: sh_2, command: x, starts: -5 }\n  - { id: sh_3, command: x, starts: 2026-11-22 }\nintegrations: [{ id: openai, name: OpenAI }]\nattempts:\n  - { id: con_1, integrationID: openai, created: "2026-11-22T08:59:60Z" }\n';
    expect(problems(text)).toEqual([
      `3:37 shells[0].starts ${INSTANT}`,
      `4:37 shells[1].starts ${INSTANT}`,
      `5:37 shells[2].starts ${INSTANT}`,
      `8:50 attempts[0].created ${INSTANT}`,
    ]);
    expect(objectProblems({ name: 'demo', shells: [{ id: 'sh_1', command: 'x', starts: { at: '1s' } }] })).toEqual([
      `shells[0].starts: ${INSTANT}`,
    ]);
  });

  it('leave durations elsewhere durations', () => {
    expect(problems('name: demo\nsessions: [{ id: ses_a, appears: 2026-11-22T09:00:00Z }]\n')).toEqual([
      '2:34 sessions[0].appears must be a duration: 250ms, 30s, 5m, 1h, 1m30s, or milliseconds as a number (at least 0)',
    ]);
  });

  it('make the world at the start: a command started before it runs (or has ended), an attempt may have expired', () => {
    const scenario = loadScenarioObject(
      {
        name: 'demo',
        shells: [
          { id: 'sh_running', command: 'a', starts: '2026-11-22T08:58:00Z', timeout: 300_000 },
          {
            id: 'sh_timedout',
            command: 'b',
            starts: '2026-11-22T08:50:00Z',
            timeout: 60_000,
            completes: { after: '5m' },
          },
          { id: 'sh_exited', command: 'c', starts: '2026-11-22T08:50:00Z', completes: { after: '1m', exit: 2 } },
        ],
        integrations: [{ id: 'openai', name: 'OpenAI' }],
        attempts: [
          { id: 'con_pending', integrationID: 'openai', created: '2026-11-22T08:55:00Z' },
          { id: 'con_expired', integrationID: 'openai', created: '2026-11-22T08:40:00Z' },
        ],
      },
      spec,
    );
    const world = createWorld(scenario, KINDS);
    const at = (iso: string) => Date.parse(iso);
    expect(world.shells.get('sh_running')).toMatchObject({ status: 'running', deadline: at('2026-11-22T09:03:00Z') });
    expect(world.shells.get('sh_timedout')).toMatchObject({ status: 'timeout', completed: at('2026-11-22T08:51:00Z') });
    expect(world.shells.get('sh_exited')).toMatchObject({
      status: 'exited',
      completed: at('2026-11-22T08:51:00Z'),
      exit: 2,
    });
    expect([...world.attempts.values()].map((a) => a.status)).toEqual(['pending', 'expired']);
  });
});

describe('shell file and metadata', () => {
  it('are kept when given, and must be an absolute path and an object', () => {
    const scenario = parseScenario(
      'name: demo\nshells:\n  - { id: sh_1, command: x, file: /var/log/x.log, metadata: { sessionID: ses_a } }\n  - { id: sh_2, command: y }\n',
      '<test>',
      spec,
    );
    expect(scenario.shells[0]).toMatchObject({ file: '/var/log/x.log', metadata: { sessionID: 'ses_a' } });
    expect(scenario.shells[1]?.file).toBeUndefined();
    expect(problems('name: demo\nshells:\n  - { id: sh_1, command: x, file: x.log, metadata: [] }\n')).toEqual([
      '3:35 shells[0].file must be an absolute path (starting with /)',
      '3:52 shells[0].metadata must be object',
    ]);
  });
});
