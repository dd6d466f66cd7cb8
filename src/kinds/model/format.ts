/** This kind's part of the scenario format (scenarios/scenario.schema.json is assembled from the kinds'). */
export const format = {
  properties: {
    model: {
      type: 'object',
      description:
        "The default model (GET /api/model/default), a spec Model record; sessions start with it, and GET /api/model lists it (over the catalogue's own record of it, or added to its provider).",
      required: ['id', 'providerID', 'name'],
    },
    providers: {
      type: 'array',
      description:
        'The model catalogue: providers (GET /api/provider, /api/provider/{id}) with their models (GET /api/model). Replaces the default catalogue (anthropic, openai, opencode with a few models each). Without a model: section it must list anthropic/claude-sonnet-4-5, the model sessions start with.',
      items: { $ref: '#/$defs/provider' },
    },
  },
  defs: {
    provider: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'name'],
      description:
        "A spec ProviderV2Info (api default {type: aisdk, package: '@ai-sdk/openai-compatible'}, request default {headers: {}, body: {}}), with its models.",
      properties: {
        id: { type: 'string', minLength: 1 },
        integrationID: {
          type: 'string',
          description: 'The integration whose connections make it active (default: its id).',
        },
        name: { type: 'string' },
        disabled: { type: 'boolean' },
        api: { type: 'object' },
        request: { type: 'object' },
        active: {
          type: 'boolean',
          description:
            "true: always listed; false: never listed (GET /api/provider/{id} still finds it). Default: listed while its integration has a connection (connecting a key or completing an OAuth attempt makes it active, then `catalog.updated`), or when the scenario's integrations do not include it.",
        },
        appears: {
          $ref: '#/$defs/duration',
          description:
            'When it joins the catalogue, from the scenario start (default: there from the start); then `catalog.updated` is published.',
        },
        models: { type: 'array', items: { $ref: '#/$defs/providerModel' } },
      },
    },
    providerModel: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'name'],
      description:
        "A spec ModelV2Info without providerID (its provider's). Defaults: api the provider's with this id, request the provider's, capabilities text in and out with tools, variants [], time.released the scenario start, cost free, status active, enabled true, limit {context: 128000, output: 16384}.",
      properties: {
        id: { type: 'string', minLength: 1 },
        family: { type: 'string' },
        name: { type: 'string' },
        api: { type: 'object' },
        capabilities: { type: 'object' },
        request: { type: 'object' },
        variants: { type: 'array' },
        time: { type: 'object' },
        cost: { type: 'array' },
        status: { enum: ['alpha', 'beta', 'deprecated', 'active'] },
        enabled: { type: 'boolean' },
        limit: { type: 'object' },
        appears: {
          $ref: '#/$defs/duration',
          description:
            'When it joins the catalogue, from the scenario start (default: there from the start); then `catalog.updated` is published.',
        },
      },
    },
  },
};
