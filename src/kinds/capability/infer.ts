/** The experimental features on (scenario-from, the capability kind's part); the answer has no envelope. */
import type { Timeline } from '../inference.js';
import { firstAnswer, isObject, type Inferred } from '../inference.js';

export function inferCapabilities(timeline: Timeline): Inferred {
  const answer = firstAnswer(timeline, 'experimental.capabilities.get');
  // All off is the default: the scenario need not say it.
  if (!answer || !isObject(answer.answer) || !Object.values(answer.answer).includes(true)) return {};
  return { capabilities: [{ value: answer.answer, from: [answer], whole: true }] };
}
