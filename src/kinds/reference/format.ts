/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    references: {
      type: 'array',
      description: 'References listed by GET /api/reference (spec Reference records).',
      items: {
        type: 'object',
        required: ['name', 'path', 'source'],
      },
    },
  },
};
