/**
 * OAuth attempts: pending until their scripted poll or time, then complete or failed, and expired once past
 * their expiry; a completed attempt connects its integration's credential, as on the real server.
 */
import { parseDuration } from '../../duration.js';
import { InvalidRequestError } from '../../errors.js';
import { draft, type EventDraft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { undeclared } from '../../text/closest.js';
import { answered, changeState, itemsOf, locationAnswer } from '../answers.js';
import type { Json, Kind } from '../kind.js';
import { condition, format } from './format.js';
import { inferAttempts } from './infer.js';
import type { AttemptDefinition, AttemptState, AttemptStatus } from './types.js';

/** OAuth attempts expire ten minutes after creation, as on the real server. */
const ATTEMPT_LIFETIME = 600_000;

const STATES: readonly AttemptStatus[] = ['pending', 'complete', 'failed', 'expired'];

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

export const attempt: Kind = {
  name: 'attempt',
  format,
  condition,
  states: STATES,
  transitions: [
    ['pending', 'complete'],
    ['pending', 'failed'],
    ['pending', 'expired'],
  ],

  read(source, context) {
    const integrations = context.declared('integration');
    const attempts = itemsOf(source, 'attempts').map((a, i): AttemptDefinition => {
      if (!integrations.has(a.integrationID as string))
        context.problem(
          ['attempts', i, 'integrationID'],
          undeclared('integration', String(a.integrationID), 'integrations', integrations),
        );
      const created = a.created === undefined ? context.start : context.instant(a.created, ['attempts', i, 'created']);
      const settles = a.settles as Json | undefined;
      if (settles && settles.poll === undefined && settles.at === undefined)
        context.problem(
          ['attempts', i, 'settles'],
          `attempts[${i}].settles says how, not when: add poll (the poll that settles it, 1 for the first) or at (a time)`,
        );
      return {
        id: a.id as string,
        integrationID: a.integrationID as string,
        created,
        expires:
          created +
          (a.expires === undefined
            ? ATTEMPT_LIFETIME
            : (parseDuration(a.expires as string | number) ?? ATTEMPT_LIFETIME)),
        settles: settles && {
          as: settles.as as 'complete' | 'failed',
          poll: settles.poll as number | undefined,
          at: settles.at === undefined ? undefined : context.after(settles.at),
          message: settles.message as string | undefined,
          credential: settles.credential as { id: string; label?: string } | undefined,
        },
      };
    });
    return { attempts };
  },

  ids: (scenario) => scenario.attempts.map((a) => a.id),

  possible: (scenario) =>
    scenario.attempts.flatMap((a) => {
      const settlesOnTime = a.settles?.at !== undefined && a.settles.at < a.expires;
      return [
        ...(a.settles ? [{ id: a.id, from: 'pending', to: a.settles.as }] : []),
        ...(settlesOnTime ? [] : [{ id: a.id, from: 'pending', to: 'expired' }]),
      ];
    }),

  // An attempt created before the start may have expired by then.
  seed: ({ attempts, start }) => ({
    attempts: new Map(
      attempts.map((definition): [string, AttemptState] => [
        definition.id,
        { definition, polls: 0, status: definition.expires <= start ? 'expired' : 'pending' },
      ]),
    ),
  }),

  stateOf: (world, id) => world.attempts.get(id)?.status,

  snapshot: (world) => ({
    attempts: [...world.attempts.values()].map((a) => ({
      id: a.definition.id,
      integrationID: a.definition.integrationID,
      state: a.status,
      polls: a.polls,
    })),
  }),

  handlers: {
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

  publication: {
    // A poll is a request, answered; nothing changed that a subscriber needs.
    internal: ['integration.attempt.polled'],
  },

  infer: inferAttempts,
};
