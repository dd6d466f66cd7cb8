/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    files: {
      type: 'array',
      description:
        "The project's file tree for GET /api/fs/list: paths relative to the project directory; a directory ends with '/'. Parent directories are implied.",
      items: {
        type: 'string',
        pattern: '^[^/].*$',
      },
    },
  },
};
