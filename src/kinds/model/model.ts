/**
 * The model catalogue: the default model (`GET /api/model/default`), the models (`GET /api/model`) and
 * providers (`GET /api/provider`, `/api/provider/{id}`) as the scenario has them, or the default catalogue.
 * They agree: the default model is the scenario's `model:` (sessions start with it too, the session kind
 * reads it) and the catalogue lists it. A provider is listed while its integration has a connection, so a
 * key connected or an OAuth attempt completed brings its models in, announced by `catalog.updated` as the
 * real server announces its catalogue reloading; so is a provider or model the scenario has appear later.
 */
import { ProviderNotFoundError } from './errors.js';
import { draft } from '../../state/events.js';
import { answered, locationAnswer } from '../answers.js';
import type { Kind } from '../kind.js';
import { activeProviders, appearances, defaultModel, knownProviders, listedModels } from './catalogue.js';
import { format } from './format.js';
import type { ModelSection } from './section.generated.js';
import { readProviders } from './read.js';

export const model: Kind<ModelSection> = {
  name: 'model',
  format,

  read(source, context) {
    const found = source.model;
    if (found) context.checkRecord('Model', found, ['model'], 'model');
    return { model: found, providers: readProviders(source, context) };
  },

  seed: (scenario) => ({ catalogue: { revealedUntil: scenario.start } }),

  snapshot: (world) => ({
    providers: knownProviders(world).map((p) => ({
      id: p.info.id,
      listed: activeProviders(world).includes(p),
    })),
  }),

  handlers: {
    'v2.model.default': (request, context) => {
      const found = context.world.scenario.model ?? defaultModel(context.world);
      return found ? answered(locationAnswer(request, context, found)) : undefined;
    },
    'v2.model.list': (request, context) => answered(locationAnswer(request, context, listedModels(context.world))),
    'v2.provider.list': (request, context) =>
      answered(
        locationAnswer(
          request,
          context,
          activeProviders(context.world).map((p) => p.info),
        ),
      ),
    'v2.provider.get': (request, context) => {
      const providerID = request.pathParams.providerID ?? '';
      const found = knownProviders(context.world).find((p) => p.info.id === providerID);
      if (!found) throw new ProviderNotFoundError(providerID);
      return answered(locationAnswer(request, context, found.info));
    },
  },

  appliers: {
    'catalog.updated': (world, event) => {
      world.catalogue.revealedUntil = Math.max(world.catalogue.revealedUntil, event.time);
    },
  },

  schedule: {
    ids: (world) => appearances(world).map(String),
    next: (world, id) => (Number(id) > world.catalogue.revealedUntil ? Number(id) : undefined),
    fire: (world, id, now) =>
      Number(id) <= now && Number(id) > world.catalogue.revealedUntil ? [draft('catalog.updated', {})] : [],
  },

  publication: {
    // The real server reloads its catalogue when an integration changes, and says so after it.
    follow: { 'integration.updated': () => [{ type: 'catalog.updated', data: {} }] },
  },

  infer: () => import('./infer.js').then((m) => m.inferModel),
};
