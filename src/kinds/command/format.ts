/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    commands: {
      type: 'array',
      description:
        "Commands listed by GET /api/command (spec CommandV2Info records), replacing the real server's defaults (init, review).",
      items: {
        type: 'object',
        required: ['name', 'template'],
      },
    },
  },
};
