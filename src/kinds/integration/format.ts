/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    integrations: {
      type: 'array',
      description:
        "Integrations listed by GET /api/integration, each checked against the spec's Integration (methods and connections as the API shows them). Left out: a small catalogue (Anthropic, GitHub Copilot, OpenAI, OpenCode, OpenRouter) with key, env and OAuth methods.",
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
            items: {
              type: 'object',
              properties: {
                attempt: {
                  $ref: '#/$defs/oauthFlow',
                },
              },
            },
          },
          connections: {
            type: 'array',
          },
        },
      },
    },
  },
  defs: {
    oauthFlow: {
      type: 'object',
      additionalProperties: false,
      description:
        'An OAuth method only, never served: how an attempt started with it (POST /api/integration/{id}/connect/oauth) goes. Default: auto, complete 5s after it starts.',
      properties: {
        mode: {
          enum: ['auto', 'code'],
          description:
            'auto (default): the browser or device flow finishes by itself; code: the user pastes a code, sent with POST /api/integration/attempt/{id}/complete.',
        },
        url: {
          type: 'string',
          description: 'Where the user authorizes; `{state}` and `{userCode}` are filled from the attempt.',
        },
        instructions: {
          type: 'string',
          description: 'What the user is told, e.g. `Enter code: {userCode}`.',
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
            'How it ends. Auto: `after` its creation (default 5s) or on a `poll`; code: when its code is sent. `expired`: nobody finishes it.',
          properties: {
            as: {
              enum: ['complete', 'failed', 'expired'],
            },
            after: {
              $ref: '#/$defs/duration',
            },
            poll: {
              type: 'integer',
              minimum: 1,
            },
            message: {
              type: 'string',
              description: 'For failed: what went wrong.',
            },
            label: {
              type: 'string',
              description: "For complete: the credential's label when the request names none (default `default`).",
            },
          },
        },
      },
    },
  },
};
