/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    sessions: {
      type: 'array',
      items: {
        $ref: '#/$defs/session',
      },
    },
    turns: {
      type: 'array',
      description:
        "Scripted agent turns. A synthetic message with resume plays the session's next turn: its scripted turns in the order listed here, then turns generated from the seed (every session without a script plays generated ones). A prompt that arrives while the session is busy waits for the turn before it.",
      items: {
        $ref: '#/$defs/turn',
      },
    },
    scriptedModel: {
      type: 'object',
      additionalProperties: false,
      description:
        'How `session-agent-sim model` (the turns as an OpenAI-compatible model, for a real runtime) picks the turn a conversation plays.',
      properties: {
        match: {
          enum: ['order', 'session', 'prompt'],
          description:
            "order (default): each new prompt plays the next turn of the list, whatever its session; session: each new session of the runtime takes the next scenario session that has turns and plays its turns in order; prompt: the first turn whose `prompt` the user's text contains. A prompt no turn covers gets a short answer.",
        },
      },
    },
  },
  defs: {
    session: {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      properties: {
        id: {
          type: 'string',
          pattern: '^ses',
        },
        title: {
          type: 'string',
        },
        appears: {
          $ref: '#/$defs/duration',
          description:
            'When the session is created, from the scenario start (default: it exists from the start). Until then every operation answers as for an unknown session; then `session.created` is published.',
        },
        busy: {
          type: 'array',
          items: {
            $ref: '#/$defs/window',
          },
          description: 'Windows of virtual time in which the session runs (revert staging answers SessionBusyError).',
        },
        busyAfterSynthetic: {
          $ref: '#/$defs/duration',
          description:
            'How long a generated turn plays (scripted turns take what their script says); a generated turn takes its natural length when omitted.',
        },
        messages: {
          type: 'array',
          items: {
            $ref: '#/$defs/message',
          },
          description: 'Messages in chronological order, before any generated ones.',
        },
        generate: {
          type: 'object',
          additionalProperties: false,
          required: ['count'],
          properties: {
            count: {
              type: 'integer',
              minimum: 0,
              maximum: 100000,
              description: 'Believable messages to add after `messages`.',
            },
          },
        },
        revert: {
          type: 'object',
          additionalProperties: false,
          description: "What staging a revert of one of this session's messages answers.",
          properties: {
            snapshot: {
              type: 'string',
            },
            files: {
              type: 'array',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['file', 'patch', 'additions', 'deletions'],
                properties: {
                  file: {
                    type: 'string',
                  },
                  patch: {
                    type: 'string',
                  },
                  additions: {
                    type: 'integer',
                    minimum: 0,
                  },
                  deletions: {
                    type: 'integer',
                    minimum: 0,
                  },
                },
              },
            },
          },
        },
        questions: {
          type: 'array',
          items: {
            type: 'string',
            pattern: '^que',
          },
          description: 'Ids of pending questions this session may be answered on.',
        },
      },
    },
    turn: {
      type: 'object',
      additionalProperties: false,
      required: ['session', 'steps'],
      description:
        'One turn of the agent in a session: what it streams, which tools it calls, how it fails or retries, with virtual durations.',
      properties: {
        session: {
          type: 'string',
          pattern: '^ses',
          description: 'The session that plays it (declared in sessions).',
        },
        prompt: {
          type: 'string',
          minLength: 1,
          description:
            "Text the prompt contains (case aside), for a scripted model that matches turns by prompt (`scriptedModel.match: prompt`). The simulator plays a session's turns in order whatever their prompt.",
        },
        steps: {
          type: 'array',
          minItems: 1,
          items: {
            $ref: '#/$defs/turnStep',
          },
          description:
            'In order. Reasoning, text and tools happen in a model step (an assistant message); a step ends after its tool calls, so what follows a tool opens the next step.',
        },
      },
    },
    turnStep: {
      type: 'object',
      additionalProperties: false,
      description: 'Exactly one of reasoning, text, tool, fail, retry, with the options that apply to it.',
      properties: {
        reasoning: {
          type: 'string',
          minLength: 1,
          description: 'Reasoning streamed in chunks.',
        },
        text: {
          type: 'string',
          minLength: 1,
          description: 'Reply text streamed in chunks.',
        },
        tool: {
          type: 'string',
          minLength: 1,
          description:
            'A tool call by name (bash, read, edit, grep…): its input streamed, then the call, then its result or error.',
        },
        input: {
          type: 'object',
          description: "The tool's input (default {}).",
        },
        result: {
          type: 'string',
          description: 'What the tool answers (its text content).',
        },
        error: {
          type: 'string',
          minLength: 1,
          description: 'The tool fails with this message instead of answering.',
        },
        structured: {
          type: 'object',
          description: "The tool's structured result (default {}).",
        },
        ask: {
          type: 'boolean',
          description:
            "The call asks for its permission first (the tool's action, naming its command, path or pattern) and the turn waits for the reply: once or always runs it, reject ends the turn. A call the agent's rules leave asking asks without it; the question tool always asks its questions. A real runtime gets a rule that asks for this call.",
        },
        takes: {
          $ref: '#/$defs/duration',
          description: 'How long the tool runs (default 1.5s).',
        },
        fail: {
          type: 'string',
          minLength: 1,
          description:
            'The model call answers a client error (HTTP 400) with this message: the step fails with the provider error the real runtime words around it, and the turn ends; nothing may follow it.',
        },
        retry: {
          type: ['string', 'object'],
          minLength: 1,
          additionalProperties: false,
          required: ['message'],
          description:
            'The model call answers an HTTP error (what its step streamed so far never arrives) and the runtime retries it, showing nothing: the steps after it are the next attempt, `wait` later. The third in a row, or a status no client retries (other than 408, 409, 429 and 5xx), fails the step and ends the turn. The message, or {message, statusCode (default 500), wait, cut}.',
          properties: {
            message: {
              type: 'string',
              minLength: 1,
            },
            statusCode: {
              type: 'integer',
              minimum: 100,
              maximum: 599,
            },
            attempt: {
              type: 'integer',
              minimum: 1,
              description: 'Kept for older scripts: the real runtime numbers no attempts, and neither does a turn.',
            },
            wait: {
              $ref: '#/$defs/duration',
              description: 'Backoff before the retried attempt starts (default 2s).',
            },
            cut: {
              type: 'boolean',
              description:
                'The attempt streams what its step did before the retry, then the connection drops mid-answer: what streamed ends where it stands and the step fails, ending the turn, as the real runtime does not retry a broken stream.',
            },
          },
        },
        after: {
          $ref: '#/$defs/duration',
          description:
            'Pause before this step begins, after what came before (default 700ms when it opens a model step, the time to first token; 250ms otherwise).',
        },
        chunk: {
          type: 'integer',
          minimum: 1,
          description: 'Characters per delta of text, reasoning or tool input (default 16, 24, 32).',
        },
        every: {
          $ref: '#/$defs/duration',
          description: 'Time between deltas (default 50ms, 40ms, 20ms).',
        },
      },
    },
    message: {
      type: 'object',
      required: ['type'],
      description:
        "A session message as the API lists it; `id` and `time` are generated when omitted. Checked against the spec's SessionMessage.",
      properties: {
        id: {
          type: 'string',
          pattern: '^msg_',
        },
        at: {
          $ref: '#/$defs/duration',
          description: 'When it was created, relative to the start (earlier messages: before the start).',
        },
        type: {
          enum: ['agent-switched', 'model-switched', 'user', 'synthetic', 'system', 'shell', 'assistant', 'compaction'],
        },
      },
    },
  },
};

/** How a rule's `when.state` names a resource of this kind; the states come in the order rules list them. */
export const condition = {
  description: 'A session of this scenario.',
  pattern: '^ses',
};
