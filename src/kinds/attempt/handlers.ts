/**
 * The OAuth attempt operations: start one with an integration's OAuth method (its flow in the scenario says
 * how it goes), poll it, complete it with a code, cancel it. Unknown attempts and integrations answer 400
 * InvalidRequestError where the real server fails with an undeclared 500.
 */
import { InvalidRequestError } from '../../errors/errors.js';
import { draft, type EventDraft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { answered, locationAnswer, NO_CONTENT } from '../answers.js';
import { ensureCredentialRoom, unknownIntegration } from '../integration/integration.js';
import { fillFlowText } from '../integration/flows.js';
import type { OAuthFlow } from '../integration/types.js';
import type { Handlers } from '../kind.js';
import { ensureRoom } from '../limits.js';
import { MAX_ATTEMPTS } from './limits.js';
import { failureMessage, settle } from './settle.js';
import type { AttemptDefinition } from './types.js';

function unknownAttempt(attemptID: string): InvalidRequestError {
  return new InvalidRequestError(`OAuth attempt not found: ${attemptID}`, 'Params', 'attemptID');
}

/**
 * When the table is full, the started attempt that settled first goes early (the real server drops it a
 * minute after it settles anyway), so a client that never moves the clock can still start new ones.
 */
function makeRoom(world: World): EventDraft[] {
  if (world.attempts.size < MAX_ATTEMPTS) return [];
  let oldest: { id: string; at: number } | undefined;
  for (const [id, a] of world.attempts)
    if (a.removeAt !== undefined && (!oldest || a.removeAt < oldest.at)) oldest = { id, at: a.removeAt };
  return oldest ? [draft('integration.attempt.removed', { attemptID: oldest.id })] : [];
}

/** A started attempt's definition: its outcome and when, from the method's flow. */
function definitionOf(
  attemptID: string,
  integrationID: string,
  methodID: string,
  flow: OAuthFlow,
  now: number,
  label: string | undefined,
): AttemptDefinition {
  const { as, after, poll, message } = flow.settles;
  const credentialLabel = label ?? flow.settles.label;
  const settles =
    as === 'expired'
      ? undefined
      : {
          as,
          ...(poll !== undefined ? { poll } : after !== undefined ? { at: now + after } : {}),
          ...(message !== undefined ? { message } : {}),
          ...(credentialLabel !== undefined ? { credential: { label: credentialLabel } } : {}),
        };
  return {
    id: attemptID,
    integrationID,
    created: now,
    expires: now + flow.expires,
    ...(settles ? { settles } : {}),
    started: { methodID, mode: flow.mode },
  };
}

export const handlers: Handlers = {
  'v2.integration.connect.oauth': (request, context) => {
    const { world, now } = context;
    const integrationID = request.pathParams.integrationID ?? '';
    const body = request.body as { methodID: string; label?: string };
    if (!world.integrations.has(integrationID)) throw unknownIntegration(integrationID);
    const flow = world.scenario.oauthFlows[integrationID]?.[body.methodID];
    if (!flow)
      throw new InvalidRequestError(`OAuth method not found: ${integrationID}/${body.methodID}`, 'Payload', 'methodID');
    const room = makeRoom(world);
    ensureRoom(world.attempts.size - room.length, MAX_ATTEMPTS, 'OAuth attempt');
    const attemptID = world.ids.ascending('con_', now);
    const attempt = definitionOf(attemptID, integrationID, body.methodID, flow, now, body.label);
    const data = {
      attemptID,
      url: fillFlowText(flow.url, attemptID),
      instructions: fillFlowText(flow.instructions, attemptID),
      mode: flow.mode,
      time: { created: attempt.created, expires: attempt.expires },
    };
    return answered(
      locationAnswer(request, context, data),
      ...room,
      draft('integration.attempt.started', { attemptID, integrationID, attempt }),
    );
  },

  'v2.integration.attempt.status': (request, context) => {
    const { world, now } = context;
    const attemptID = request.pathParams.attemptID ?? '';
    const attempt = world.attempts.get(attemptID);
    if (!attempt) throw unknownAttempt(attemptID);
    const polls = attempt.polls + 1;
    const events = [draft('integration.attempt.polled', { attemptID, polls })];
    const { settles, created, expires } = attempt.definition;
    let status = attempt.status;
    let message = attempt.message;
    // A poll-scripted attempt settles on its Nth poll (time-scripted ones settle on the clock, by the timeline).
    if (status === 'pending' && settles?.poll !== undefined && polls >= settles.poll && now < expires) {
      events.push(...settle(world, attempt, settles.as, now));
      status = settles.as;
      message = status === 'failed' ? failureMessage(attempt) : undefined;
    }
    return answered(
      locationAnswer(request, context, { status, time: { created, expires }, ...(message ? { message } : {}) }),
      ...events,
    );
  },

  'v2.integration.attempt.complete': (request, { world, now }) => {
    const attemptID = request.pathParams.attemptID ?? '';
    const attempt = world.attempts.get(attemptID);
    if (!attempt) throw unknownAttempt(attemptID);
    // On the real server a settled attempt ignores it.
    if (attempt.status !== 'pending') return answered(NO_CONTENT);
    // A scenario's attempt, like an auto one, finishes by itself: the real server is "already completing" it.
    if (attempt.definition.started?.mode !== 'code')
      throw new InvalidRequestError(`OAuth attempt already completing: ${attemptID}`, undefined, 'attemptID');
    const { code } = request.body as { code?: string };
    if (code === undefined)
      throw new InvalidRequestError('Authorization code is required', 'integration_code_required');
    // No provider takes an empty code.
    const outcome = code.trim() === '' ? 'failed' : (attempt.definition.settles?.as ?? 'complete');
    if (outcome === 'failed')
      return {
        answer: new InvalidRequestError('Authentication failed', 'integration_authorization').toAnswer(),
        events: settle(world, attempt, 'failed', now),
      };
    ensureCredentialRoom(world, attempt.definition.integrationID);
    return answered(NO_CONTENT, ...settle(world, attempt, 'complete', now));
  },

  // Idempotent, as on the real server: an unknown or settled attempt is left as it is.
  'v2.integration.attempt.cancel': (request, { world }) => {
    const attemptID = request.pathParams.attemptID ?? '';
    if (world.attempts.get(attemptID)?.status !== 'pending') return answered(NO_CONTENT);
    return answered(NO_CONTENT, draft('integration.attempt.cancelled', { attemptID }));
  },
};
