/** The skills (`GET /api/skill`): the scenario's, or the real server's built-in one. */
import { answered, locationAnswer } from '../answers.js';
import type { Kind } from '../kind.js';
import { DEFAULT_SKILLS } from './defaults.js';
import { format } from './format.js';
import type { SkillSection } from './section.generated.js';

export const skill: Kind<SkillSection> = {
  name: 'skill',
  format,

  read(source, context) {
    if (source.skills === undefined) return {};
    const skills = source.skills;
    const seen = new Set<unknown>();
    skills.forEach((s, i) => {
      context.checkRecord('SkillV2Info', s, ['skills', i], `skill ${String(s.name)}`);
      if (seen.has(s.name)) context.problem(['skills', i, 'name'], `skill ${String(s.name)} is declared twice`);
      seen.add(s.name);
    });
    return { skills };
  },

  handlers: {
    'v2.skill.list': (request, context) =>
      answered(locationAnswer(request, context, context.world.scenario.skills ?? DEFAULT_SKILLS)),
  },

  infer: () => import('./infer.js').then((m) => m.inferSkills),
};
