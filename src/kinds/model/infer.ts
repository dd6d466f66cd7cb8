/**
 * The default model and the catalogue (scenario-from, the model kind's part): the providers a recording
 * listed, each with the models the model list gave it. Providers a recording lists were active then, so they
 * are written `active: true` (whatever the integrations inferred beside them say).
 */
import type { Timeline } from '../inference.js';
import { dataOf, firstAnswer, isObject, type Inferred, type JsonObject, type Part } from '../inference.js';
import { SESSION_MODEL } from './read.js';
import { interfaceRecord } from './records.js';

export function inferModel(timeline: Timeline): Inferred {
  const inferred: Inferred = {};
  const answer = firstAnswer(timeline, 'v2.model.default');
  if (answer && isObject(dataOf(answer))) inferred.model = [{ value: dataOf(answer), from: [answer], whole: true }];
  const providers = inferProviders(timeline);
  if (!providers.length) return inferred;
  inferred.providers = providers;
  // Sessions start with the default model, which the catalogue must list: without a recorded one, and with
  // a catalogue that lacks the simulator's, the newest model listed is the default.
  const listed: JsonObject[] = providers.flatMap((p) => {
    const provider = p.value as { id: string; models: JsonObject[] };
    return provider.models.map((m) => ({ ...m, providerID: provider.id }));
  });
  const hasSessionModel = listed.some((m) => m.id === SESSION_MODEL.id && m.providerID === SESSION_MODEL.providerID);
  const [newest] = listed.filter((m) => isObject(m.api)).sort((a, b) => released(b) - released(a));
  if (!inferred.model && !hasSessionModel && newest)
    inferred.model = [
      {
        value: interfaceRecord(newest),
        from: providers[0]?.from ?? [],
        whole: true,
        note: 'the newest model listed: no default model was recorded, and sessions start with the default model',
      },
    ];
  return inferred;
}

const released = (m: JsonObject) => (m.time as { released?: number } | undefined)?.released ?? 0;

function inferProviders(timeline: Timeline): Part[] {
  const listing = firstAnswer(timeline, 'v2.provider.list');
  const modelListing = firstAnswer(timeline, 'v2.model.list');
  if (!listing && !modelListing) return [];
  const from = [listing, modelListing].filter((s) => s !== undefined);
  const models = ((modelListing && (dataOf(modelListing) as JsonObject[] | undefined)) ?? []).filter(isObject);
  const providers = ((listing && (dataOf(listing) as JsonObject[] | undefined)) ?? []).filter(isObject);
  // Without the provider list, a provider is known by its models alone, and named by its id.
  for (const id of new Set(models.map((m) => m.providerID as string))) {
    if (!providers.some((p) => p.id === id)) providers.push({ id, name: id });
  }
  return providers.map((provider) => ({
    value: {
      ...provider,
      active: true,
      models: models.filter((m) => m.providerID === provider.id).map(withoutProvider),
    },
    from,
  }));
}

/** A listed model as a provider's section holds it: its provider is the one it sits under. */
function withoutProvider(model: JsonObject): JsonObject {
  const copy = { ...model };
  delete copy.providerID;
  return copy;
}
