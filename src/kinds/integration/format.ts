/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    integrations: {
      type: 'array',
      description:
        "Integrations listed by GET /api/integration, each checked against the spec's Integration (methods and connections as the API shows them).",
      items: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: {
            type: 'string',
          },
          name: {
            type: 'string',
          },
          methods: {
            type: 'array',
          },
          connections: {
            type: 'array',
          },
        },
      },
    },
  },
};
