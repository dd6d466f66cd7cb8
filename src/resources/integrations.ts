/**
 * Integrations, credentials and OAuth attempts. Connecting with a key adds a credential connection (the key
 * itself is never kept: nothing here stores or logs it); a credential can be relabelled; an OAuth attempt is
 * pending until its scripted poll or time, then complete or failed, and expired once past its expiry.
 */
import { InvalidRequestError } from '../errors.js';
import { draft, type EventDraft } from '../state/events.js';
import type { AttemptState, World } from '../state/world.js';
import { answered, changeState, locationAnswer, NO_CONTENT, type ResourceModule } from './resource.js';

/** What an attempt leaving pending makes happen: a completed one connects its credential, as on the real server. */
function settle(
  world: World,
  attempt: AttemptState,
  status: 'complete' | 'failed' | 'expired',
  now: number,
): EventDraft[] {
  const { id: attemptID, integrationID, settles } = attempt.definition;
  const message = status === 'failed' ? (settles?.message ?? 'Authorization failed') : undefined;
  const events = [
    draft('integration.attempt.settled', { attemptID, integrationID, status, ...(message ? { message } : {}) }),
  ];
  if (status === 'complete' && world.integrations.has(integrationID)) {
    const credential = {
      type: 'credential' as const,
      id: settles?.credential?.id ?? world.ids.ascending('cred_', now),
      label: settles?.credential?.label ?? 'default',
    };
    events.push(
      draft('integration.credential.connected', { integrationID, credential }),
      draft('integration.connection.updated', { integrationID }),
      draft('integration.updated', {}),
    );
  }
  return events;
}

export const integrations: ResourceModule = {
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

    'v2.integration.attempt.status': (request, context) => {
      const { world, now } = context;
      const attemptID = request.pathParams.attemptID ?? '';
      const attempt = world.attempts.get(attemptID);
      if (!attempt) {
        if (world.attempts.size === 0) return undefined;
        throw new InvalidRequestError(`OAuth attempt not found: ${attemptID}`, 'Params', 'attemptID');
      }
      const polls = attempt.polls + 1;
      const events = [draft('integration.attempt.polled', { attemptID, polls })];
      const { settles, created, expires } = attempt.definition;
      let status = attempt.status;
      let message = attempt.message;
      // A poll-scripted attempt settles on its Nth poll (time-scripted ones settle on the clock, by the timeline).
      if (status === 'pending' && settles?.poll !== undefined && polls >= settles.poll && now < expires) {
        events.push(...settle(world, attempt, settles.as, now));
        status = settles.as;
        message = status === 'failed' ? (settles.message ?? 'Authorization failed') : undefined;
      }
      return answered(
        locationAnswer(request, context, { status, time: { created, expires }, ...(message ? { message } : {}) }),
        ...events,
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
    'integration.attempt.polled': (world, { data }) => {
      const attempt = world.attempts.get(data.attemptID);
      if (attempt) attempt.polls = data.polls;
    },
    'integration.attempt.settled': (world, { data }) =>
      changeState('attempt', data.attemptID, world.attempts.get(data.attemptID), data.status, {
        message: data.message,
      }),
  },

  timeline: {
    kind: 'attempt',
    ids: (world) => world.attempts.keys(),
    next(world, id) {
      const attempt = world.attempts.get(id);
      if (attempt?.status !== 'pending') return undefined;
      const { settles, expires } = attempt.definition;
      return settles?.at !== undefined && settles.at < expires ? settles.at : expires;
    },
    fire(world, id, now) {
      const attempt = world.attempts.get(id);
      if (attempt?.status !== 'pending') return [];
      const { settles, expires } = attempt.definition;
      if (settles?.at !== undefined && settles.at <= now && settles.at < expires)
        return settle(world, attempt, settles.as, now);
      if (expires <= now) return settle(world, attempt, 'expired', now);
      return [];
    },
  },
};
