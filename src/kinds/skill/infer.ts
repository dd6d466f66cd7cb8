/** The skills listed (scenario-from, the skill kind's part). */
import type { Timeline } from '../draft.js';
import { dataOf, firstAnswer, type Inferred, type Json } from '../draft.js';

export function inferSkills(timeline: Timeline): Inferred {
  const listing = firstAnswer(timeline, 'v2.skill.list');
  if (!listing) return {};
  return { skills: ((dataOf(listing) as Json[] | undefined) ?? []).map((value) => ({ value, from: [listing] })) };
}
