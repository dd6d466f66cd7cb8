/** The commands: the real server's defaults, a scenario's instead, held to the spec; and scenario-from. */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../../src/hosts/app.js';
import { inferCommands } from '../../../../src/kinds/command/infer.js';
import { specProblems } from '../../../support/spec-validator.js';
import { recorded } from '../model/recorded.js';

const list = async (scenario: Record<string, unknown>) => {
  const app = await createApp({ scenario: { name: 'commands', ...scenario }, log: () => {} });
  const res = await request(app).get('/api/command').expect(200);
  expect(specProblems('v2.command.list', res.status, res.body, res.headers['content-type'] as string)).toEqual([]);
  return res.body.data as Array<Record<string, unknown>>;
};

describe('the commands', () => {
  it("are the real server's init and review by default", async () => {
    const commands = await list({});
    expect(commands.map((c) => ({ ...c, template: undefined }))).toEqual([
      { name: 'init', description: 'guided AGENTS.md setup' },
      { name: 'review', description: 'review changes [commit|branch|pr], defaults to uncommitted', subtask: true },
    ]);
    for (const c of commands) expect(c.template).toContain('$ARGUMENTS');
  });

  it("are the scenario's when it lists them", async () => {
    const deploy = {
      name: 'deploy',
      template: 'Deploy $ARGUMENTS to the preview',
      agent: 'build',
      model: { id: 'gpt-5', providerID: 'openai' },
    };
    expect(await list({ commands: [deploy] })).toEqual([deploy]);
    await expect(
      createApp({ scenario: { name: 'bad', commands: [deploy, { ...deploy, subtask: 'yes' }] }, log: () => {} }),
    ).rejects.toThrow(/commands\[1\].*subtask must be boolean[\s\S]*command deploy is declared twice/);
  });

  it('are inferred from the first listing', () => {
    const commands = [{ name: 'init', template: 'x' }];
    const timeline = recorded(['v2.command.list', { location: {}, data: commands }]);
    expect(inferCommands(timeline).commands?.map((p) => p.value)).toEqual(commands);
  });
});
