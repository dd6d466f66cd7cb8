/**
 * Integrations and their credentials. Connecting with a key adds a credential connection (the key itself is
 * never kept: nothing here stores or logs it); a credential can be relabelled.
 */
import { InvalidRequestError } from '../../errors.js';
import { draft } from '../../state/events.js';
import { answered, itemsOf, locationAnswer, NO_CONTENT } from '../answers.js';
import type { Json, Kind } from '../kind.js';
import { format } from './format.js';
import { inferIntegrations } from './infer.js';
import type { IntegrationRecord } from './types.js';

export const integration: Kind = {
  name: 'integration',
  format,

  read(source, context) {
    const integrations = itemsOf(source, 'integrations').map((raw, i) => {
      const record = { methods: [], connections: [], ...raw } as unknown as IntegrationRecord;
      context.checkRecord('Integration', record, ['integrations', i], `integration ${record.id}`);
      return record;
    });
    return { integrations };
  },

  ids: (scenario) => scenario.integrations.map((i) => i.id),

  seed: (scenario) => ({ integrations: new Map(scenario.integrations.map((i) => [i.id, structuredClone(i)])) }),

  snapshot: (world) => ({
    integrations: [...world.integrations.values()].map((i) => ({ id: i.id, connections: i.connections })),
  }),

  handlers: {
    'v2.integration.list': (request, context) => {
      if (context.world.integrations.size === 0) return undefined;
      return answered(locationAnswer(request, context, [...context.world.integrations.values()]));
    },

    'v2.integration.connect.key': (request, { world, now }) => {
      const integrationID = request.pathParams.integrationID ?? '';
      const integration = world.integrations.get(integrationID);
      if (!integration) {
        if (world.integrations.size === 0) return undefined;
        throw new InvalidRequestError(`Integration not found: ${integrationID}`, 'Params', 'integrationID');
      }
      const methods = (integration.methods as Array<{ type?: string }> | undefined) ?? [];
      if (!methods.some((m) => m.type === 'key'))
        throw new InvalidRequestError(
          `Key method not found for integration: ${integrationID}`,
          'Params',
          'integrationID',
        );
      const label = (request.body as { label?: string | null }).label ?? 'default';
      const credential = { type: 'credential' as const, id: world.ids.ascending('cred_', now), label };
      return answered(
        NO_CONTENT,
        draft('integration.credential.connected', { integrationID, credential }),
        draft('integration.connection.updated', { integrationID }),
        draft('integration.updated', {}),
      );
    },

    'v2.credential.update': (request, { world }) => {
      const credentialID = request.pathParams.credentialID ?? '';
      const label = (request.body as { label: string }).label;
      const known = [...world.integrations.values()].some((i) =>
        i.connections.some((c) => c.type === 'credential' && c.id === credentialID),
      );
      // An unknown credential is a silent no-op on the real server: nothing changes, nothing is announced.
      if (!known) return answered(NO_CONTENT);
      return answered(
        NO_CONTENT,
        draft('credential.relabelled', { credentialID, label }),
        draft('integration.updated', {}),
      );
    },
  },

  appliers: {
    'integration.credential.connected': (world, { data }) => {
      const integration = world.integrations.get(data.integrationID);
      // A new credential replaces the integration's previous one, as on the real server.
      if (integration)
        integration.connections = [...integration.connections.filter((c) => c.type !== 'credential'), data.credential];
    },
    'credential.relabelled': (world, { data }) => {
      for (const integration of world.integrations.values()) {
        integration.connections = integration.connections.map((c) =>
          c.type === 'credential' && c.id === data.credentialID ? { ...c, label: data.label } : c,
        );
      }
    },
  },

  publication: {
    // integration.connection.updated follows it.
    internal: ['integration.credential.connected', 'credential.relabelled'],
  },

  infer: inferIntegrations,
};

export type { Json };
