/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    worktrees: {
      type: 'array',
      description:
        "The project's sandbox worktrees (GET /experimental/worktree) when the scenario starts. Default: none, as a fresh project has.",
      items: { $ref: '#/$defs/worktree' },
    },
  },
  defs: {
    worktree: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: {
          type: 'string',
          pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
          description: "The worktree's directory name.",
        },
        branch: { type: 'string', description: 'Its branch. Default opencode/<name>.' },
        directory: {
          type: 'string',
          pattern: '^/',
          description:
            "Where it is checked out. Default the real server's place: ~/.local/share/opencode/worktree/<projectID>/<name>.",
        },
      },
    },
  },
};
