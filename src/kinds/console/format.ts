/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    console: {
      type: 'object',
      additionalProperties: false,
      description:
        'The Console orgs of the logged-in accounts (GET /experimental/console/orgs), the active one (GET /experimental/console), switched with POST /experimental/console/switch. None by default: no account is logged in.',
      properties: {
        orgs: { type: 'array', items: { $ref: '#/$defs/consoleOrg' } },
      },
    },
  },
  defs: {
    consoleOrg: {
      type: 'object',
      additionalProperties: false,
      required: ['accountID', 'accountEmail', 'accountUrl', 'orgID', 'orgName'],
      properties: {
        accountID: { type: 'string', minLength: 1 },
        accountEmail: { type: 'string' },
        accountUrl: { type: 'string' },
        orgID: { type: 'string', minLength: 1 },
        orgName: { type: 'string' },
        active: { type: 'boolean', description: 'The active org at the start (at most one).' },
        providers: {
          type: 'array',
          items: { type: 'string' },
          description: 'Providers the org manages: consoleManagedProviders while it is active (default none).',
        },
      },
    },
  },
};
