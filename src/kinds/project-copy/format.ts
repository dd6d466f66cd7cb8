/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    projectCopy: {
      $ref: '#/$defs/projectCopy',
    },
  },
  defs: {
    projectCopy: {
      type: 'object',
      additionalProperties: false,
      description:
        "How POST /experimental/project/{projectID}/copy answers: the copy's directory, or a scripted ProjectCopyError.",
      properties: {
        error: {
          type: 'object',
          additionalProperties: false,
          required: ['message'],
          properties: {
            message: {
              type: 'string',
            },
            forceRequired: {
              type: 'boolean',
            },
          },
        },
      },
    },
  },
};
