/** The skills listed (scenario-from, the skill kind's part). */
import type { Timeline } from '../inference.js';
import { dataOf, firstAnswer, type Inferred, type JsonObject } from '../inference.js';

export function inferSkills(timeline: Timeline): Inferred {
  const listing = firstAnswer(timeline, 'v2.skill.list');
  if (!listing) return {};
  return { skills: ((dataOf(listing) as JsonObject[] | undefined) ?? []).map((value) => ({ value, from: [listing] })) };
}
