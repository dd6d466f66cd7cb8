/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    resources: {
      type: 'array',
      description:
        'MCP resources of connected servers (GET /experimental/resource), spec McpResource records: `client` names the server. None by default, as the real server has without MCP servers.',
      items: {
        type: 'object',
        required: ['name', 'uri', 'client'],
      },
    },
  },
};
