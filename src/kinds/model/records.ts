/**
 * The two shapes a model has in the API: the catalogue's `ModelV2Info` (`GET /api/model`: `api`, `request`,
 * `status`) and the interface document's `Model` (`GET /api/model/default`: `modelID`, `package`,
 * `settings`, `headers`, `body`), and the ways from one to the other, so the default model reads the same in
 * both answers.
 */
type JsonObject = Record<string, unknown>;

interface Api {
  id?: string;
  type: 'aisdk' | 'native';
  package?: string;
  url?: string;
  settings?: JsonObject;
}

interface Request {
  headers: Record<string, string>;
  body: JsonObject;
}

interface Variant {
  id: string;
  settings?: JsonObject;
  headers: Record<string, string>;
  body: JsonObject;
}

/** A provider's `api` as one of its models carries it: the model's id at the provider, as the provider speaks. */
export function modelApi(provider: JsonObject, id: string): JsonObject {
  const api = provider.api as Api;
  if (api.type === 'native')
    return { id, type: 'native', ...(api.url ? { url: api.url } : {}), settings: api.settings ?? {} };
  return {
    id,
    type: 'aisdk',
    package: api.package ?? '@ai-sdk/openai-compatible',
    ...(api.url ? { url: api.url } : {}),
    ...(api.settings ? { settings: api.settings } : {}),
  };
}

/** The catalogue's record of a `Model`, on top of what the catalogue already had of it (`base`). */
export function catalogueRecord(model: JsonObject, provider: JsonObject, base?: JsonObject): JsonObject {
  const baseApi = base?.api as Api | undefined;
  const baseRequest = base?.request as Request | undefined;
  const providerRequest = (provider.request as Request | undefined) ?? { headers: {}, body: {} };
  const api = modelApi(provider, (model.modelID as string | undefined) ?? baseApi?.id ?? (model.id as string));
  if (api.type === 'aisdk' && typeof model.package === 'string') api.package = model.package;
  const family = (model.family as string | undefined) ?? (base?.family as string | undefined);
  return {
    id: model.id,
    providerID: model.providerID,
    ...(family ? { family } : {}),
    name: model.name,
    api,
    capabilities: model.capabilities,
    request: {
      headers: (model.headers as JsonObject | undefined) ?? baseRequest?.headers ?? providerRequest.headers,
      body: (model.body as JsonObject | undefined) ?? baseRequest?.body ?? providerRequest.body,
    },
    variants: ((model.variants as Variant[] | undefined) ?? []).map(({ id, headers, body }) => ({ id, headers, body })),
    time: model.time,
    cost: model.cost,
    status: (base?.status as string | undefined) ?? 'active',
    enabled: model.enabled,
    limit: model.limit,
  };
}

/** The interface document's `Model` of a catalogue record (`GET /api/model/default`). */
export function interfaceRecord(info: JsonObject): JsonObject {
  const api = info.api as Api;
  const request = (info.request as Request | undefined) ?? { headers: {}, body: {} };
  return {
    id: info.id,
    modelID: api.id ?? info.id,
    providerID: info.providerID,
    name: info.name,
    ...(info.family ? { family: info.family } : {}),
    ...(api.package ? { package: api.package } : {}),
    capabilities: info.capabilities,
    variants: ((info.variants as Variant[] | undefined) ?? []).map(({ id, headers, body }) => ({
      id,
      settings: {},
      headers,
      body,
    })),
    time: info.time,
    cost: info.cost,
    enabled: info.enabled,
    limit: info.limit,
    settings: api.settings ?? {},
    headers: request.headers,
    body: request.body,
  };
}
