/** The MCP resources listed (scenario-from, the resource kind's part); the answer is an object by key. */
import type { Timeline } from '../inference.js';
import { firstAnswer, isObject, type Inferred } from '../inference.js';

export function inferResources(timeline: Timeline): Inferred {
  const listing = firstAnswer(timeline, 'experimental.resource.list');
  if (!listing || !isObject(listing.answer)) return {};
  const resources = Object.values(listing.answer).filter(isObject);
  return resources.length ? { resources: resources.map((value) => ({ value, from: [listing] })) } : {};
}
