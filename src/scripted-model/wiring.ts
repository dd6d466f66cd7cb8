/** The `opencode.json` that points a real runtime at a scripted model, as `model --print-config` prints it. */

export interface ModelIdentity {
  /** The provider's id in the runtime's config. */
  provider: string;
  /** The model's id, as `GET /v1/models` lists it. */
  model: string;
}

/**
 * A custom provider on the OpenAI-compatible package, with the scripted model as the runtime's default. The
 * runtime requires an API key for it; any will do unless the model was started with one.
 */
export function opencodeConfig(url: string, identity: ModelIdentity, apiKey?: string): Record<string, unknown> {
  return {
    provider: {
      [identity.provider]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'session-agent-sim scripted model',
        options: { baseURL: url, apiKey: apiKey ?? 'sk-scripted' },
        models: { [identity.model]: { name: 'Scripted model' } },
      },
    },
    model: `${identity.provider}/${identity.model}`,
  };
}
