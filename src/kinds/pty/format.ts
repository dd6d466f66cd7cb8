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
      description:
        'A terminal of a location, running from the start unless `status: exited`. A shell (bash, zsh, sh, fish…) runs what is typed into it over its WebSocket: `replies` first, then echo, pwd, cd, exit, clear, true, false, whoami and date; anything else is not found. Another command only has what is typed echoed, and ends with Ctrl-C.',
      properties: {
        id: {
          type: 'string',
          pattern: '^pty',
        },
        title: {
          type: 'string',
          description: "Default: 'Terminal ' and the id's last 4 characters.",
        },
        command: {
          type: 'string',
          description: 'Default: /bin/bash.',
        },
        args: {
          type: 'array',
          items: {
            type: 'string',
          },
          description: 'Default: [-l].',
        },
        cwd: {
          type: 'string',
          description: 'Default: the project directory.',
        },
        directory: {
          type: 'string',
          pattern: '^/',
          description:
            'The location that holds it (absolute): it is listed, found and connected to there only. Default: the project directory.',
        },
        pid: {
          type: 'integer',
          minimum: 1,
        },
        status: {
          enum: ['running', 'exited'],
          description: 'Default: running.',
        },
        exitCode: {
          type: 'integer',
          minimum: 0,
          maximum: 255,
          description: 'The exit code of a PTY that has exited (default 0).',
        },
        banner: {
          type: 'string',
          description: 'What the terminal printed as it started, before its first prompt.',
        },
        transcript: {
          description:
            'What was typed and printed before the scenario starts, replayed to every client that connects: text as printed, or commands each shown at the prompt with its output. A running shell then waits at its prompt.',
          oneOf: [
            { type: 'string' },
            {
              type: 'array',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['input'],
                properties: {
                  input: { type: 'string' },
                  output: { type: 'string' },
                },
              },
            },
          ],
        },
        prompt: {
          type: 'string',
          description:
            "The shell's prompt (default '$ '); bash's \\w (cwd, home as ~), \\W, \\u, \\h and \\$ are expanded.",
        },
        replies: {
          type: 'array',
          description: 'What a line typed into the shell answers, the first that fits; before the built-in commands.',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['output'],
            oneOf: [{ required: ['input'] }, { required: ['match'] }],
            properties: {
              input: { type: 'string', description: 'The line as typed (spaces around it aside).' },
              match: { type: 'string', description: 'Or a regular expression the line matches.' },
              output: { type: 'string', description: 'What the command prints (\\n reaches the terminal as \\r\\n).' },
              exitCode: {
                type: 'integer',
                minimum: 0,
                maximum: 255,
                description: 'The exit status ($?) it leaves (default 0).',
              },
            },
          },
        },
      },
    },
  },
};

/** How a rule's `when.state` names a resource of this kind; the states come in the order rules list them. */
export const condition = {
  description: 'A PTY of this scenario.',
  pattern: '^pty',
};
