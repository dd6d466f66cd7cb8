/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    ptys: {
      type: 'array',
      items: {
        $ref: '#/$defs/pty',
      },
    },
  },
  defs: {
    pty: {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      properties: {
        id: {
          type: 'string',
          pattern: '^pty',
        },
        title: {
          type: 'string',
        },
        command: {
          type: 'string',
        },
        args: {
          type: 'array',
          items: {
            type: 'string',
          },
        },
        cwd: {
          type: 'string',
        },
        pid: {
          type: 'integer',
          minimum: 1,
        },
      },
    },
  },
};
