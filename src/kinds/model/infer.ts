/** The default model (scenario-from, the model kind's part). */
import type { Timeline } from '../../derive/timeline.js';
import { dataOf, firstAnswer, isObject, type Inferred } from '../draft.js';

export function inferModel(timeline: Timeline): Inferred {
  const answer = firstAnswer(timeline, 'v2.model.default');
  if (!answer || !isObject(dataOf(answer))) return {};
  return { model: [{ value: dataOf(answer), from: [answer], whole: true }] };
}
