/** The commands listed (scenario-from, the command kind's part). */
import type { Timeline } from '../inference.js';
import { dataOf, firstAnswer, type Inferred, type JsonObject } from '../inference.js';

export function inferCommands(timeline: Timeline): Inferred {
  const listing = firstAnswer(timeline, 'v2.command.list');
  if (!listing) return {};
  return {
    commands: ((dataOf(listing) as JsonObject[] | undefined) ?? []).map((value) => ({ value, from: [listing] })),
  };
}
