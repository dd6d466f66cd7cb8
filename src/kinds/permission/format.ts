/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    permissions: {
      type: 'object',
      additionalProperties: false,
      description:
        "Permission requests the agents are waiting on, and permissions saved by earlier `always` replies. A reply of `always` saves the request's `save` patterns. A new request's effect is its agent's rules (`agents[].permissions`); a saved pattern allows a resource those rules would ask about, never one they deny.",
      properties: {
        requests: {
          type: 'array',
          items: { $ref: '#/$defs/permissionRequest' },
        },
        saved: {
          type: 'array',
          items: { $ref: '#/$defs/savedPermission' },
        },
      },
    },
  },
  defs: {
    permissionRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'sessionID', 'action', 'resources'],
      description:
        "A permission request as the API lists it (the spec's PermissionV2Request), pending until it is replied to.",
      properties: {
        id: { type: 'string', pattern: '^per' },
        sessionID: { type: 'string', pattern: '^ses', description: 'The session that asks (declared in sessions).' },
        action: { type: 'string', minLength: 1, description: 'What it asks to do: bash, edit, external_directory…' },
        resources: { type: 'array', items: { type: 'string' }, description: 'What it asks to do it on.' },
        save: {
          type: 'array',
          items: { type: 'string' },
          description: 'Patterns (`*` any run, `?` one character) an `always` reply saves for the action.',
        },
        metadata: { type: 'object' },
        source: {
          type: 'object',
          additionalProperties: false,
          required: ['type', 'messageID', 'callID'],
          description: 'The tool call that asks.',
          properties: {
            type: { const: 'tool' },
            messageID: { type: 'string' },
            callID: { type: 'string' },
          },
        },
        appears: {
          $ref: '#/$defs/duration',
          description:
            'When the agent asks it (default: pending from the start); `permission.v2.asked` is published then.',
        },
      },
    },
    savedPermission: {
      type: 'object',
      additionalProperties: false,
      required: ['action', 'resource'],
      description: 'A saved permission: the action is allowed for resources matching the pattern.',
      properties: {
        id: { type: 'string', pattern: '^psv', description: 'Generated when omitted.' },
        projectID: { type: 'string', description: 'Default: the project the partition serves.' },
        action: { type: 'string', minLength: 1 },
        resource: { type: 'string', minLength: 1, description: 'A pattern: `*` any run, `?` one character.' },
      },
    },
  },
};

/** How a rule's `when.state` names a resource of this kind; the states come in the order rules list them. */
export const condition = {
  description: 'A permission request of this scenario.',
  pattern: '^per',
};
