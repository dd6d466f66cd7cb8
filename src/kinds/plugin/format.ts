/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    plugins: {
      type: 'array',
      description: 'Ids of loaded plugins (GET /api/plugin).',
      items: {
        type: 'string',
      },
    },
  },
};
