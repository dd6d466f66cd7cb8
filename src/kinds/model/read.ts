/**
 * Reading the model catalogue of a scenario: its `providers:` (or the default catalogue) with what each
 * record leaves out filled in, and its `model:` made part of it, so the default model, the catalogue and the
 * model sessions start with agree.
 */
import type { Path } from '../kind.js';
import { reportDuplicates } from '../answers.js';
import type { ScenarioProvider, ScenarioProviderModel } from '../../format/scenario-types.js';
import type { JsonObject, ReadContext } from '../kind.js';
import { DEFAULT_PROVIDERS } from './defaults.js';
import { catalogueRecord, modelApi } from './records.js';
import type { ModelSection } from './section.generated.js';
import type { ModelDefinition, ProviderDefinition } from './types.js';

/** The model sessions start with when the scenario has no `model:` (src/kinds/session/state.ts). */
export const SESSION_MODEL = { id: 'claude-sonnet-4-5', providerID: 'anthropic' } as const;

const NO_REQUEST = { headers: {}, body: {} };
const DEFAULT_API = { type: 'aisdk', package: '@ai-sdk/openai-compatible' };

export function readProviders(source: ModelSection, context: ReadContext): ProviderDefinition[] {
  const declared = source.providers;
  // The default catalogue is the simulator's own and held to the spec by its tests, not the scenario's.
  const check = declared !== undefined;
  const providers = (declared ?? DEFAULT_PROVIDERS).map((raw, i) =>
    readProvider(raw, ['providers', i], context, check),
  );
  if (check) {
    reportDuplicates(
      providers.map((p) => p.info.id),
      'providers',
      'provider',
      context,
    );
    providers.forEach((p, i) => {
      const seen = new Set<string>();
      p.models.forEach((m, j) => {
        if (seen.has(m.info.id))
          context.problem(['providers', i, 'models', j, 'id'], `model ${p.info.id}/${m.info.id} is declared twice`);
        seen.add(m.info.id);
      });
    });
  }
  const model = source.model;
  if (model) return withDefaultModel(providers, model, check, context);
  if (!findModel(providers, SESSION_MODEL))
    context.problem(
      ['providers'],
      `lists no model ${SESSION_MODEL.providerID}/${SESSION_MODEL.id}, the one sessions start with when the scenario has no model: section; list it, or add a model: section`,
    );
  return providers;
}

export function findModel(
  providers: readonly ProviderDefinition[],
  ref: { id: string; providerID: string },
): ModelDefinition | undefined {
  return providers.find((p) => p.info.id === ref.providerID)?.models.find((m) => m.info.id === ref.id);
}

function readProvider(raw: ScenarioProvider, path: Path, context: ReadContext, check: boolean): ProviderDefinition {
  const { active, appears, models, ...fields } = raw;
  const info = {
    id: fields.id,
    ...(fields.integrationID === undefined ? {} : { integrationID: fields.integrationID }),
    name: fields.name,
    ...(fields.disabled === undefined ? {} : { disabled: fields.disabled }),
    api: fields.api ?? DEFAULT_API,
    request: fields.request ?? NO_REQUEST,
  };
  if (check) context.checkRecord('ProviderV2Info', info, path, `provider ${info.id}`);
  return {
    info,
    ...(active === undefined ? {} : { active }),
    ...(appears === undefined ? {} : { appears: context.after(appears) }),
    models: (models ?? []).map((m, j) => readModel(m, info, [...path, 'models', j], context, check)),
  };
}

function readModel(
  raw: ScenarioProviderModel,
  provider: ProviderDefinition['info'],
  path: Path,
  context: ReadContext,
  check: boolean,
): ModelDefinition {
  const { appears, ...m } = raw;
  const id = m.id;
  const info = {
    id,
    providerID: provider.id,
    ...(m.family === undefined ? {} : { family: m.family }),
    name: m.name,
    api: m.api ?? modelApi(provider, id),
    capabilities: m.capabilities ?? { tools: true, input: ['text'], output: ['text'] },
    request: m.request ?? provider.request,
    variants: m.variants ?? [],
    time: (m.time as { released: number } | undefined) ?? { released: context.start },
    cost: m.cost ?? [{ input: 0, output: 0, cache: { read: 0, write: 0 } }],
    status: m.status ?? 'active',
    enabled: m.enabled ?? true,
    limit: m.limit ?? { context: 128000, output: 16384 },
  };
  if (check) context.checkRecord('ModelV2Info', info, path, `model ${provider.id}/${id}`);
  return { info, ...(appears === undefined ? {} : { appears: context.after(appears) }) };
}

/**
 * The catalogue with the scenario's default model in it, as `model:` describes it: over the catalogue's own
 * record of that model, or added to its provider. A provider the scenario's `providers:` does not list is
 * a problem; the default catalogue gains it.
 */
function withDefaultModel(
  providers: ProviderDefinition[],
  model: JsonObject,
  declared: boolean,
  context: ReadContext,
): ProviderDefinition[] {
  const providerID = model.providerID as string;
  let index = providers.findIndex((p) => p.info.id === providerID);
  if (index < 0) {
    if (declared) {
      context.problem(['model', 'providerID'], `provider ${providerID} is not among providers; list it there`);
      return providers;
    }
    const api = typeof model.package === 'string' ? { type: 'aisdk', package: model.package } : DEFAULT_API;
    providers = [
      ...providers,
      { info: { id: providerID, name: providerID, api, request: NO_REQUEST }, active: true, models: [] },
    ];
    index = providers.length - 1;
  }
  const provider = providers[index] as ProviderDefinition;
  const at = provider.models.findIndex((m) => m.info.id === model.id);
  const info = catalogueRecord(model, provider.info, provider.models[at]?.info) as ModelDefinition['info'];
  context.checkRecord('ModelV2Info', info, ['model'], 'model (as GET /api/model lists it)');
  const models =
    at >= 0 ? provider.models.map((m, j) => (j === at ? { ...m, info } : m)) : [...provider.models, { info }];
  return providers.map((p, j) => (j === index ? { ...p, models } : p));
}
