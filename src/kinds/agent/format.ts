/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    agents: {
      type: 'array',
      description:
        "Agents listed by GET /api/agent (spec AgentV2Info records), replacing the real server's defaults (build, plan, general, explore and the hidden compaction, title, summary). Sessions start with build, so it must be listed, as must every agent a session's messages switch to. Defaults: request {headers: {}, body: {}}, mode all, hidden false, permissions the rules every agent starts from.",
      items: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string', minLength: 1 },
        },
      },
    },
  },
};
