/** The agents listed (scenario-from, the agent kind's part). */
import type { Timeline } from '../inference.js';
import { dataOf, firstAnswer, type Inferred, type JsonObject } from '../inference.js';

export function inferAgents(timeline: Timeline): Inferred {
  const listing = firstAnswer(timeline, 'v2.agent.list');
  if (!listing) return {};
  return { agents: ((dataOf(listing) as JsonObject[] | undefined) ?? []).map((value) => ({ value, from: [listing] })) };
}
