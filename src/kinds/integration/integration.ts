/**
 * Integrations and their credentials. Connecting with a key (or finishing an OAuth attempt, the attempt
 * kind's) adds a credential connection, replacing the integration's previous one; the key itself is never
 * kept: nothing here stores or logs it. A credential can be relabelled and removed.
 */
import { InvalidRequestError } from '../../errors/errors.js';
import { draft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { answered, locationAnswer, NO_CONTENT, reportDuplicates } from '../answers.js';
import type { JsonObject, Kind } from '../kind.js';
import { ensureRoom } from '../limits.js';
import { MAX_CREDENTIALS } from './limits.js';
import { DEFAULT_INTEGRATIONS } from './defaults.js';
import { readIntegration } from './flows.js';
import { format } from './format.js';
import type { IntegrationSection } from './section.generated.js';
import type { IntegrationRecord, OAuthFlow } from './types.js';

/** The integration holding a credential, if one does. */
function holderOf(world: World, credentialID: string): IntegrationRecord | undefined {
  for (const integration of world.integrations.values())
    if (integration.connections.some((c) => c.type === 'credential' && c.id === credentialID)) return integration;
  return undefined;
}

/**
 * Room for one more credential on an integration: a new one replaces the integration's own, so only the
 * others count (they are bounded by the scenario's integrations anyway; the bound keeps it so).
 */
export function ensureCredentialRoom(world: World, integrationID: string): void {
  let held = 0;
  for (const integration of world.integrations.values())
    if (integration.id !== integrationID) held += integration.connections.filter((c) => c.type === 'credential').length;
  ensureRoom(held, MAX_CREDENTIALS, 'credential');
}

export function unknownIntegration(integrationID: string): InvalidRequestError {
  return new InvalidRequestError(`Integration not found: ${integrationID}`, 'Params', 'integrationID');
}

export const integration: Kind<IntegrationSection> = {
  name: 'integration',
  limits: { credential: MAX_CREDENTIALS },
  format,

  read(source, context) {
    const raw = source.integrations ?? DEFAULT_INTEGRATIONS;
    const oauthFlows: Record<string, Record<string, OAuthFlow>> = {};
    const integrations = raw.map((item, i) => {
      const { record, flows } = readIntegration(item, i, context);
      context.checkRecord('Integration', record, ['integrations', i], `integration ${record.id}`);
      oauthFlows[record.id] = flows;
      return record;
    });
    reportDuplicates(
      integrations.map((i) => i.id),
      'integrations',
      'integration',
      context,
    );
    return { integrations, oauthFlows };
  },

  ids: (scenario) => scenario.integrations.map((i) => i.id),

  seed: (scenario) => ({ integrations: new Map(scenario.integrations.map((i) => [i.id, structuredClone(i)])) }),

  snapshot: (world) => ({
    integrations: [...world.integrations.values()].map((i) => ({ id: i.id, connections: i.connections })),
  }),

  handlers: {
    'v2.integration.list': (request, context) =>
      answered(locationAnswer(request, context, [...context.world.integrations.values()])),

    'v2.integration.get': (request, context) => {
      const integrationID = request.pathParams.integrationID ?? '';
      const found = context.world.integrations.get(integrationID);
      // The real server answers `data: null`, which its own document does not allow.
      if (!found) throw unknownIntegration(integrationID);
      return answered(locationAnswer(request, context, found));
    },

    'v2.integration.connect.key': (request, { world, now }) => {
      const integrationID = request.pathParams.integrationID ?? '';
      const found = world.integrations.get(integrationID);
      if (!found) throw unknownIntegration(integrationID);
      const methods = (found.methods as Array<{ type?: string }> | undefined) ?? [];
      if (!methods.some((m) => m.type === 'key'))
        throw new InvalidRequestError(
          `Key method not found for integration: ${integrationID}`,
          'Params',
          'integrationID',
        );
      ensureCredentialRoom(world, integrationID);
      const label = (request.body as { label?: string | null }).label ?? 'default';
      const credential = { type: 'credential' as const, id: world.ids.ascending('cred_', now), label };
      return answered(
        NO_CONTENT,
        draft('integration.credential.connected', { integrationID, credential }),
        draft('integration.connection.updated', { integrationID }),
        draft('integration.updated', {}),
      );
    },

    // The real server announces both a known and an unknown credential's change (the unknown one changes nothing).
    'v2.credential.update': (request, { world }) => {
      const credentialID = request.pathParams.credentialID ?? '';
      const label = (request.body as { label: string }).label;
      const holder = holderOf(world, credentialID);
      if (!holder) return answered(NO_CONTENT, draft('integration.updated', {}));
      return answered(
        NO_CONTENT,
        draft('credential.relabelled', { credentialID, label }),
        draft('integration.connection.updated', { integrationID: holder.id }),
        draft('integration.updated', {}),
      );
    },

    'v2.credential.remove': (request, { world }) => {
      const credentialID = request.pathParams.credentialID ?? '';
      const holder = holderOf(world, credentialID);
      if (!holder) return answered(NO_CONTENT, draft('integration.updated', {}));
      return answered(
        NO_CONTENT,
        draft('credential.removed', { credentialID, integrationID: holder.id }),
        draft('integration.connection.updated', { integrationID: holder.id }),
        draft('integration.updated', {}),
      );
    },
  },

  appliers: {
    'integration.credential.connected': (world, { data }) => {
      const found = world.integrations.get(data.integrationID);
      // A new credential replaces the integration's previous one and is listed before any env connection, as on
      // the real server.
      if (found) found.connections = [data.credential, ...found.connections.filter((c) => c.type !== 'credential')];
    },
    'credential.relabelled': (world, { data }) => {
      for (const found of world.integrations.values()) {
        found.connections = found.connections.map((c) =>
          c.type === 'credential' && c.id === data.credentialID ? { ...c, label: data.label } : c,
        );
      }
    },
    'credential.removed': (world, { data }) => {
      const found = world.integrations.get(data.integrationID);
      if (found)
        found.connections = found.connections.filter((c) => !(c.type === 'credential' && c.id === data.credentialID));
    },
  },

  publication: {
    // integration.connection.updated follows each.
    internal: ['integration.credential.connected', 'credential.relabelled', 'credential.removed'],
  },

  infer: () => import('./infer.js').then((m) => m.inferIntegrations),
};

export type { JsonObject };
