/**
 * Integrations, credentials and OAuth attempts. Connecting with a key adds a credential connection (the key
 * itself is never kept: nothing here stores or logs it); a credential can be relabelled; an OAuth attempt is
 * pending until its scripted poll or time, then complete or failed, and expired once past its expiry.
 */
import { InvalidRequestError } from '../errors.js';
import type { AttemptState, World } from '../state/world.js';
import { locationAnswer, type Handlers } from './handler.js';

/** Moves an attempt along on a poll at `now`; once it leaves pending it stays where it landed. */
function poll(world: World, attempt: AttemptState, now: number): AttemptState['status'] {
  attempt.polls++;
  if (attempt.status !== 'pending') return attempt.status;
  const { settles, expires } = attempt.definition;
  const settleAt = settles?.at !== undefined && now >= settles.at ? settles.at : settles?.poll !== undefined && attempt.polls >= settles.poll ? now : undefined;
  if (settles && settleAt !== undefined && settleAt < expires) {
    attempt.status = settles.as;
    if (settles.as === 'complete') connect(world, attempt.definition.integrationID, settles.credential?.id ?? world.ids.ascending('cred_', now), settles.credential?.label ?? 'default');
  } else if (now >= expires) {
    attempt.status = 'expired';
  }
  return attempt.status;
}

/** A new credential replaces the integration's previous one, as on the real server. */
function connect(world: World, integrationID: string, id: string, label: string): void {
  const integration = world.integrations.get(integrationID);
  if (!integration) return;
  integration.connections = [...integration.connections.filter((c) => c.type !== 'credential'), { type: 'credential', id, label }];
}

export const integrationHandlers: Handlers = {
  'v2.integration.list': (request, context) => {
    if (context.world.integrations.size === 0) return undefined;
    return locationAnswer(request, context, [...context.world.integrations.values()]);
  },

  'v2.integration.connect.key': (request, { world, now }) => {
    const integrationID = request.pathParams.integrationID ?? '';
    const integration = world.integrations.get(integrationID);
    if (!integration) {
      if (world.integrations.size === 0) return undefined;
      throw new InvalidRequestError(`Integration not found: ${integrationID}`, 'Params', 'integrationID');
    }
    const methods = (integration.methods as Array<{ type?: string }> | undefined) ?? [];
    if (!methods.some((m) => m.type === 'key')) throw new InvalidRequestError(`Key method not found for integration: ${integrationID}`, 'Params', 'integrationID');
    const label = (request.body as { label?: string | null }).label;
    connect(world, integrationID, world.ids.ascending('cred_', now), label ?? 'default');
    return { status: 204 };
  },

  'v2.credential.update': (request, { world }) => {
    const id = request.pathParams.credentialID;
    const label = (request.body as { label: string }).label;
    for (const integration of world.integrations.values()) {
      integration.connections = integration.connections.map((c) => (c.type === 'credential' && c.id === id ? { ...c, label } : c));
    }
    // An unknown credential is a silent no-op on the real server.
    return { status: 204 };
  },

  'v2.integration.attempt.status': (request, context) => {
    const attemptID = request.pathParams.attemptID ?? '';
    const attempt = context.world.attempts.get(attemptID);
    if (!attempt) {
      if (context.world.attempts.size === 0) return undefined;
      throw new InvalidRequestError(`OAuth attempt not found: ${attemptID}`, 'Params', 'attemptID');
    }
    const status = poll(context.world, attempt, context.now);
    const { created, expires } = attempt.definition;
    const message = status === 'failed' ? (attempt.definition.settles?.message ?? 'Authorization failed') : undefined;
    return locationAnswer(request, context, { status, time: { created, expires }, ...(message ? { message } : {}) });
  },
};
