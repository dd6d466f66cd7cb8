/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    questions: {
      type: 'array',
      description:
        "Questions the agents ask, with their content. A session's `questions: [que_…]` names pending questions whose content is generated; a question written here needs no mention there.",
      items: { $ref: '#/$defs/questionRequest' },
    },
  },
  defs: {
    questionRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'sessionID', 'questions'],
      description:
        "A question request as the API lists it (the spec's QuestionV2Request), pending until it is replied to or rejected.",
      properties: {
        id: { type: 'string', pattern: '^que' },
        sessionID: { type: 'string', pattern: '^ses', description: 'The session that asks (declared in sessions).' },
        questions: { type: 'array', minItems: 1, items: { $ref: '#/$defs/questionInfo' } },
        tool: {
          type: 'object',
          additionalProperties: false,
          required: ['messageID', 'callID'],
          description: 'The question tool call that asks.',
          properties: { messageID: { type: 'string' }, callID: { type: 'string' } },
        },
        appears: {
          $ref: '#/$defs/duration',
          description:
            'When the agent asks it (default: pending from the start); `question.v2.asked` is published then.',
        },
      },
    },
    questionInfo: {
      type: 'object',
      additionalProperties: false,
      required: ['question', 'header', 'options'],
      properties: {
        question: { type: 'string', minLength: 1, description: 'The whole question.' },
        header: { type: 'string', minLength: 1, description: 'A very short label (30 characters at most).' },
        options: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['label', 'description'],
            properties: {
              label: { type: 'string', minLength: 1, description: 'What the answer lists when it is chosen.' },
              description: { type: 'string' },
            },
          },
        },
        multiple: { type: 'boolean', description: 'More than one option may be chosen.' },
        custom: { type: 'boolean', description: 'An answer of its own may be typed.' },
      },
    },
  },
};

/** How a rule's `when.state` names a resource of this kind; the states come in the order rules list them. */
export const condition = {
  description: 'A question of this scenario.',
  pattern: '^que',
};
