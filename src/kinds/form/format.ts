/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    forms: {
      type: 'array',
      items: {
        $ref: '#/$defs/form',
      },
    },
  },
  defs: {
    form: {
      type: 'object',
      required: ['id', 'sessionID', 'title', 'mode'],
      description:
        "A form the agent asks the user to fill in. Its fields follow the spec's FormRequest; `appears` and `cancelled` script its lifecycle.",
      properties: {
        id: {
          type: 'string',
          pattern: '^frm_',
        },
        sessionID: {
          type: 'string',
          pattern: '^ses',
        },
        title: {
          type: 'string',
        },
        mode: {
          enum: ['form', 'url'],
        },
        appears: {
          $ref: '#/$defs/duration',
          description: 'Pending from this time on (default: from the start).',
        },
        cancelled: {
          $ref: '#/$defs/duration',
          description: 'Cancelled (settled, gone from the pending list) at this time.',
        },
      },
    },
  },
};

/** How a rule's `when.state` names a resource of this kind; the states come in the order rules list them. */
export const condition = {
  description: 'A form of this scenario.',
  pattern: '^frm_',
};
