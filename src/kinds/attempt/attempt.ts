/**
 * OAuth attempts: the scenario's, and those a request starts with an integration's OAuth method. Pending
 * until their scripted poll or time (or, in code mode, the code sent), then complete or failed, and expired
 * once past their expiry; a completed attempt connects its integration's credential, as on the real server.
 * A started attempt can be cancelled while pending, and is gone a minute after it settles.
 */
import { parseDuration } from '../../text/duration.js';
import { undeclared } from '../../text/closest.js';
import { changeState } from '../answers.js';
import { ATTEMPT_LIFETIME } from '../integration/flows.js';
import type { Kind } from '../kind.js';
import { condition, format } from './format.js';
import type { AttemptSection } from './section.generated.js';
import { handlers } from './handlers.js';
import { attemptSchedule, SETTLED_KEPT_MS } from './settle.js';
import type { AttemptDefinition, AttemptState, AttemptStatus } from './types.js';
import { MAX_ATTEMPTS } from './limits.js';

const STATES: readonly AttemptStatus[] = ['pending', 'complete', 'failed', 'expired'];

export const attempt: Kind<AttemptSection> = {
  name: 'attempt',
  limits: { attempt: MAX_ATTEMPTS },
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
    const attempts = (source.attempts ?? []).map((a, i): AttemptDefinition => {
      if (!integrations.has(a.integrationID))
        context.problem(
          ['attempts', i, 'integrationID'],
          undeclared('integration', a.integrationID, 'integrations', integrations),
        );
      const created = a.created === undefined ? context.start : context.instant(a.created, ['attempts', i, 'created']);
      const settles = a.settles;
      if (settles && settles.poll === undefined && settles.at === undefined)
        context.problem(
          ['attempts', i, 'settles'],
          `attempts[${i}].settles says how, not when: add poll (the poll that settles it, 1 for the first) or at (a time)`,
        );
      return {
        id: a.id,
        integrationID: a.integrationID,
        created,
        expires:
          created + (a.expires === undefined ? ATTEMPT_LIFETIME : (parseDuration(a.expires) ?? ATTEMPT_LIFETIME)),
        settles: settles && {
          as: settles.as,
          poll: settles.poll,
          at: settles.at === undefined ? undefined : context.after(settles.at),
          message: settles.message,
          credential: settles.credential,
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
      ...(a.definition.started ? { mode: a.definition.started.mode } : {}),
    })),
  }),

  handlers,

  appliers: {
    'integration.attempt.polled': (world, { data }) => {
      const attempt = world.attempts.get(data.attemptID);
      if (attempt) attempt.polls = data.polls;
    },
    'integration.attempt.started': (world, { data }) => {
      world.attempts.set(data.attemptID, { definition: data.attempt, polls: 0, status: 'pending' });
    },
    'integration.attempt.settled': (world, { data, time }) => {
      const attempt = world.attempts.get(data.attemptID);
      return changeState('attempt', data.attemptID, attempt, data.status, {
        message: data.message,
        ...(attempt?.definition.started ? { removeAt: time + SETTLED_KEPT_MS } : {}),
      });
    },
    'integration.attempt.cancelled': (world, { data }) => {
      world.attempts.delete(data.attemptID);
    },
    'integration.attempt.removed': (world, { data }) => {
      world.attempts.delete(data.attemptID);
    },
  },

  schedule: attemptSchedule,

  publication: {
    // A poll is a request, answered; the real server announces no attempt starting, cancelled or removed.
    internal: [
      'integration.attempt.polled',
      'integration.attempt.started',
      'integration.attempt.cancelled',
      'integration.attempt.removed',
    ],
    // The real server announces a completed attempt by the credential it connects (integration.connection.updated
    // and integration.updated follow it here too), and a failed or expired one not at all.
    simOnly: ['integration.attempt.settled'],
  },

  infer: () => import('./infer.js').then((m) => m.inferAttempts),
};
