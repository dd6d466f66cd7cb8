/** The skills: the real server's built-in one, a scenario's instead, held to the spec; and scenario-from. */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../../src/hosts/app.js';
import { inferSkills } from '../../../../src/kinds/skill/infer.js';
import { specProblems } from '../../../support/spec-validator.js';
import { recorded } from '../model/recorded.js';

const list = async (scenario: Record<string, unknown>) => {
  const app = await createApp({ scenario: { name: 'skills', ...scenario }, log: () => {} });
  const res = await request(app).get('/api/skill').expect(200);
  expect(specProblems('v2.skill.list', res.status, res.body, res.headers['content-type'] as string)).toEqual([]);
  return res.body.data as Array<Record<string, unknown>>;
};

describe('the skills', () => {
  it("are the real server's built-in customize-opencode by default", async () => {
    expect(await list({})).toEqual([
      expect.objectContaining({
        name: 'customize-opencode',
        location: '/builtin/customize-opencode.md',
        description: expect.stringMatching(
          /^Use ONLY when the user is editing or creating opencode's own configuration/,
        ),
        content: expect.stringContaining('opencode.json'),
      }),
    ]);
  });

  it("are the scenario's when it lists them", async () => {
    const release = {
      name: 'release',
      description: 'Cut a release',
      slash: true,
      location: '/home/dev/acme-web/.opencode/skill/release/SKILL.md',
      content: '# Release',
    };
    expect(await list({ skills: [release] })).toEqual([release]);
    await expect(
      // @ts-expect-error a skill without content: the format's types refuse it as the loader does
      createApp({ scenario: { name: 'bad', skills: [{ name: 'x', location: '/x' }] }, log: () => {} }),
    ).rejects.toThrow(/skills\[0\]: missing field "content"/);
  });

  it('are inferred from the first listing', () => {
    const skills = [{ name: 'a', location: '/a', content: 'c' }];
    expect(
      inferSkills(recorded(['v2.skill.list', { location: {}, data: skills }])).skills?.map((p) => p.value),
    ).toEqual(skills);
  });
});
