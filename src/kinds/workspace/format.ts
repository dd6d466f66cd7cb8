/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    workspaces: {
      type: 'array',
      description:
        "The project's workspaces (/experimental/workspace) when the scenario starts; a worktree workspace stands on a worktree of the same name, listed by GET /experimental/worktree. Default: none, as a fresh project has.",
      items: { $ref: '#/$defs/workspace' },
    },
  },
  defs: {
    workspace: {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      properties: {
        id: { type: 'string', pattern: '^wrk' },
        type: { type: 'string', description: 'Its adapter. Default worktree, the one adapter the real server has.' },
        name: {
          type: 'string',
          pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
          description: 'Default an adjective-noun slug, as the real server names them.',
        },
        branch: { type: ['string', 'null'] },
        directory: { type: ['string', 'null'], pattern: '^/', description: "Default its worktree's directory." },
        extra: { description: 'Anything the adapter keeps with it. Default null.' },
        status: {
          enum: ['connected', 'connecting', 'disconnected', 'error'],
          description: 'Its connection status (GET /experimental/workspace/status). Default connected.',
        },
        used: { $ref: '#/$defs/instant', description: 'When it was last used (timeUsed). Default the start.' },
      },
    },
  },
};
