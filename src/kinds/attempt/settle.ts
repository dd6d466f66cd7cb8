/**
 * An attempt leaving pending, and what that makes happen: a completed one connects its integration's
 * credential and announces it as the real server does for a key (`integration.connection.updated`, then
 * `integration.updated`); a failed or expired one changes nothing else.
 */
import { draft, type EventDraft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import type { Schedule } from '../kind.js';
import type { AttemptState } from './types.js';

/** How long the real server keeps a started attempt once it settled (its sweep removes it after). */
export const SETTLED_KEPT_MS = 60_000;

export type Outcome = 'complete' | 'failed' | 'expired';

export function failureMessage(attempt: AttemptState): string {
  return attempt.definition.settles?.message ?? 'Authorization failed';
}

export function settle(world: World, attempt: AttemptState, status: Outcome, now: number): EventDraft[] {
  const { id: attemptID, integrationID, settles } = attempt.definition;
  const message = status === 'failed' ? failureMessage(attempt) : undefined;
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

/**
 * Pending until its scripted time or its expiry, whichever comes first (a poll-scripted or code attempt only
 * expires on the clock); a started one that settled is removed a minute later.
 */
export const attemptSchedule: Schedule = {
  ids: (world) => world.attempts.keys(),
  next(world, id) {
    const attempt = world.attempts.get(id);
    if (!attempt) return undefined;
    if (attempt.status !== 'pending') return attempt.removeAt;
    const { settles, expires } = attempt.definition;
    return settles?.at !== undefined && settles.at < expires ? settles.at : expires;
  },
  fire(world, id, now) {
    const attempt = world.attempts.get(id);
    if (!attempt) return [];
    if (attempt.status !== 'pending')
      return attempt.removeAt !== undefined && attempt.removeAt <= now
        ? [draft('integration.attempt.removed', { attemptID: id })]
        : [];
    const { settles, expires } = attempt.definition;
    if (settles?.at !== undefined && settles.at <= now && settles.at < expires)
      return settle(world, attempt, settles.as, now);
    if (expires <= now) return settle(world, attempt, 'expired', now);
    return [];
  },
};
