/** The commands listed (scenario-from, the command kind's part). */
import type { Timeline } from '../draft.js';
import { dataOf, firstAnswer, type Inferred, type Json } from '../draft.js';

export function inferCommands(timeline: Timeline): Inferred {
  const listing = firstAnswer(timeline, 'v2.command.list');
  if (!listing) return {};
  return { commands: ((dataOf(listing) as Json[] | undefined) ?? []).map((value) => ({ value, from: [listing] })) };
}
