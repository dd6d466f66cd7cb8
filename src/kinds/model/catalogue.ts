/**
 * The catalogue as the world shows it now: what has appeared, which providers are active (a provider whose
 * integration has no connection is known but not listed, as on the real server until a key is connected),
 * and their models newest first.
 */
import type { World } from '../../state/world.js';
import type { JsonObject } from '../kind.js';
import { findModel, SESSION_MODEL } from './read.js';
import { interfaceRecord } from './records.js';
import type { ModelDefinition, ProviderDefinition } from './types.js';

const appeared = (world: World, item: { appears?: number }) =>
  item.appears === undefined || item.appears <= world.catalogue.revealedUntil;

/** Providers that exist now, listed or not (`GET /api/provider/{id}` finds them). */
export function knownProviders(world: World): ProviderDefinition[] {
  return world.scenario.providers.filter((p) => appeared(world, p));
}

function isActive(world: World, provider: ProviderDefinition): boolean {
  if (provider.active !== undefined) return provider.active;
  const integration = world.integrations.get(provider.info.integrationID ?? provider.info.id);
  return !integration || integration.connections.length > 0;
}

/** `GET /api/provider`: the active providers, in the catalogue's order. */
export function activeProviders(world: World): ProviderDefinition[] {
  return knownProviders(world).filter((p) => isActive(world, p));
}

/** `GET /api/model`: the models of the active providers, newest release first (ties keep the catalogue's order). */
export function listedModels(world: World): JsonObject[] {
  const models = activeProviders(world).flatMap((p) => p.models.filter((m) => appeared(world, m)));
  return models.map((m) => m.info).sort((a, b) => b.time.released - a.time.released);
}

/**
 * `GET /api/model/default` when the scenario has no `model:`: the catalogue's record of the model sessions
 * start with, in the interface document's shape; else its first model.
 */
export function defaultModel(world: World): JsonObject | undefined {
  const { providers } = world.scenario;
  const found: ModelDefinition | undefined = findModel(providers, SESSION_MODEL) ?? providers[0]?.models[0];
  return found && interfaceRecord(found.info);
}

/** The instants at which something of the catalogue appears, each once. */
export function appearances(world: World): number[] {
  const instants = world.scenario.providers.flatMap((p) => [p.appears, ...p.models.map((m) => m.appears)]);
  return [...new Set(instants.filter((t): t is number => t !== undefined))];
}
