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
        'Project copies (/experimental/project/{projectID}/copy): a scripted ProjectCopyError for every creation, and the copies that exist when the scenario starts (a dirty one needs force to be removed).',
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
        copies: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['directory'],
            properties: {
              directory: { type: 'string', pattern: '^/', description: "The copy's absolute directory." },
              dirty: {
                type: 'boolean',
                description: 'It has modified or untracked files: removing it without force answers forceRequired.',
              },
            },
          },
        },
      },
    },
  },
};
