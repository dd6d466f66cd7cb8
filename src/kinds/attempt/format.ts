/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    attempts: {
      type: 'array',
      items: {
        $ref: '#/$defs/attempt',
      },
    },
  },
  defs: {
    attempt: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'integrationID'],
      description:
        'An OAuth attempt, polled through GET /api/integration/attempt/{id}: pending until it settles, expired once past its expiry.',
      properties: {
        id: {
          type: 'string',
          pattern: '^con_',
        },
        integrationID: {
          type: 'string',
        },
        created: {
          $ref: '#/$defs/instant',
          description:
            'When the attempt was created (default: the start): a duration from the start, or a date-time, which may be before the start. `time.created` shows it, and it expires `expires` after it.',
        },
        expires: {
          $ref: '#/$defs/duration',
          description: 'How long after creation it expires (default 10m, as the real server).',
        },
        settles: {
          type: 'object',
          additionalProperties: false,
          required: ['as'],
          description:
            'When and how it leaves pending: on a poll (`poll: 3` = the third poll already answers the outcome) or at a time.',
          properties: {
            as: {
              enum: ['complete', 'failed'],
            },
            poll: {
              type: 'integer',
              minimum: 1,
            },
            at: {
              $ref: '#/$defs/duration',
            },
            message: {
              type: 'string',
              description: 'For failed: what went wrong.',
            },
            credential: {
              type: 'object',
              additionalProperties: false,
              required: ['id'],
              properties: {
                id: {
                  type: 'string',
                },
                label: {
                  type: 'string',
                },
              },
              description: 'For complete: the credential connection the integration gains.',
            },
          },
        },
      },
    },
  },
};

/** How a rule's `when.state` names a resource of this kind; the states come in the order rules list them. */
export const condition = {
  description: 'An OAuth attempt of this scenario (its state as last polled).',
  pattern: '^con_',
};
