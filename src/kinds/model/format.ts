/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    model: {
      type: 'object',
      description: 'The default model (GET /api/model/default), a spec Model record.',
      required: ['id', 'providerID', 'name'],
    },
  },
};
