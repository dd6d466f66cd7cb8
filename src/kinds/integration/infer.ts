/** The integrations listed before anything changed them (scenario-from, the integration kind's part). */
import type { Timeline } from '../../derive/timeline.js';
import { dataOf, firstAnswer, type Inferred, type Json } from '../draft.js';

export function inferIntegrations(timeline: Timeline): Inferred {
  const listing = firstAnswer(timeline, 'v2.integration.list');
  if (!listing) return {};
  return { integrations: ((dataOf(listing) as Json[] | undefined) ?? []).map((value) => ({ value, from: [listing] })) };
}
