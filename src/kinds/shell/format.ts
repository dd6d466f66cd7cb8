/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    shells: {
      type: 'array',
      items: {
        $ref: '#/$defs/shell',
      },
    },
  },
  defs: {
    shell: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'command'],
      description:
        "A shell command of the project's location: running from the start (or from `starts`) until it completes or its timeout passes on the virtual clock; times count from when it starts.",
      properties: {
        id: {
          type: 'string',
          pattern: '^sh_',
        },
        command: {
          type: 'string',
        },
        cwd: {
          type: 'string',
          description: 'Default: the project directory.',
        },
        shell: {
          type: 'string',
          description: 'Default: /bin/bash.',
        },
        pid: {
          type: 'integer',
          minimum: 1,
        },
        file: {
          type: 'string',
          pattern: '^/',
          description: 'Absolute path of the captured output (default: /tmp/session-agent/shell/<id>.log).',
        },
        metadata: {
          type: 'object',
          description: "The command's metadata as the API shows it (default: {}).",
        },
        starts: {
          $ref: '#/$defs/instant',
          description:
            'When the command starts (default: at the start): a duration from the start, or a date-time. Until then it does not exist, then `shell.created` is published; at or before the start it is running from the beginning, with `time.started` that instant. Its timeout and completion count from it.',
        },
        timeout: {
          type: 'integer',
          minimum: 0,
          description: 'Milliseconds from when it starts; 0 or omitted: no timeout.',
        },
        completes: {
          type: 'object',
          additionalProperties: false,
          required: ['after'],
          properties: {
            after: {
              $ref: '#/$defs/duration',
            },
            exit: {
              type: 'integer',
              minimum: 0,
              maximum: 255,
              description: 'Exit code (default 0).',
            },
          },
        },
      },
    },
  },
};

/** How a rule's `when.state` names a resource of this kind; the states come in the order rules list them. */
export const condition = {
  description: 'A shell of this scenario.',
  pattern: '^sh_',
};
