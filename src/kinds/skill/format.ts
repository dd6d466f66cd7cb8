/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    skills: {
      type: 'array',
      description:
        "Skills listed by GET /api/skill (spec SkillV2Info records), replacing the real server's built-in customize-opencode.",
      items: {
        type: 'object',
        required: ['name', 'location', 'content'],
      },
    },
  },
};
