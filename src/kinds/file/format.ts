/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
const PATH = { type: 'string', pattern: '^[^/].*$' };

export const format = {
  properties: {
    files: {
      type: 'array',
      description:
        "The project's file tree for GET /api/fs/list, /api/fs/find and /api/fs/read/*: paths relative to the project directory; a directory ends with '/'. Parent directories are implied. A file given as a path alone reads as contents generated from its name (a README, a package.json, a component…). Omitted: a small TypeScript project.",
      items: {
        anyOf: [
          PATH,
          {
            type: 'object',
            additionalProperties: false,
            required: ['path'],
            description: 'A file with its contents (text, or base64 for a binary file), or a size to generate.',
            properties: {
              path: { ...PATH, pattern: '^[^/].*[^/]$' },
              content: { type: 'string' },
              encoding: { enum: ['utf8', 'base64'], description: 'How content is written. Default utf8.' },
              size: {
                type: 'integer',
                minimum: 0,
                maximum: 16_777_216,
                description: 'Bytes of generated text, for a large file without content.',
              },
            },
          },
        ],
      },
    },
  },
};
