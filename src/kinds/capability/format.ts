/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    capabilities: {
      type: 'object',
      additionalProperties: false,
      description: 'Experimental features the server has on (GET /experimental/capabilities).',
      properties: {
        backgroundSubagents: {
          type: 'boolean',
          description: 'Subagents can be moved to the background (default false, as on the real server).',
        },
      },
    },
  },
};
