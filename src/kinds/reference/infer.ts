/** The references listed (scenario-from, the reference kind's part). */
import type { Timeline } from '../inference.js';
import { dataOf, firstAnswer, type Inferred } from '../inference.js';

export function inferReferences(timeline: Timeline): Inferred {
  const listing = firstAnswer(timeline, 'v2.reference.list');
  return listing ? { references: [{ value: dataOf(listing) ?? [], from: [listing], whole: true }] } : {};
}
