/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    tools: {
      type: 'array',
      description:
        "Tools (GET /experimental/tool/ids lists every id; GET /experimental/tool the ones the provider and model asked about get, with their JSON Schema parameters), replacing the real server's built-in ones (invalid, question, bash, read, glob, grep, edit, write, task, webfetch, todowrite, websearch, skill, apply_patch).",
      items: { $ref: '#/$defs/tool' },
    },
  },
  defs: {
    tool: {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      properties: {
        id: { type: 'string', minLength: 1 },
        description: { type: 'string', description: 'Default: empty.' },
        parameters: {
          type: 'object',
          description: "The tool's parameters as JSON Schema (default: an object schema with no properties).",
        },
        only: {
          type: 'string',
          format: 'regex',
          description:
            'Listed only for a provider and model whose `provider/model` matches this pattern (`/gpt-5`, `^opencode/`).',
        },
        except: {
          type: 'string',
          format: 'regex',
          description: 'Not listed for a provider and model whose `provider/model` matches this pattern.',
        },
      },
    },
  },
};
