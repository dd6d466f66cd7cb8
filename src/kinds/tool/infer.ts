/**
 * The tools (scenario-from, the tool kind's part): those the first tool list gave (its answer is a bare
 * array), then the ids only the id list named, which the provider and model asked about did not get.
 */
import type { Timeline } from '../inference.js';
import { firstAnswer, isObject, type Inferred, type JsonObject, type Part } from '../inference.js';

export function inferTools(timeline: Timeline): Inferred {
  const listing = firstAnswer(timeline, 'tool.list');
  const ids = firstAnswer(timeline, 'tool.ids');
  const listed = ((listing?.answer as unknown[] | undefined) ?? []).filter(isObject);
  const parts: Part[] = listing ? listed.map((value) => ({ value, from: [listing] })) : [];
  const asked = listing && `${String(listing.query.provider)}/${String(listing.query.model)}`;
  for (const id of ((ids?.answer as unknown[] | undefined) ?? []).filter((i) => typeof i === 'string')) {
    if (!ids || listed.some((t) => t.id === id)) continue;
    const value: JsonObject = { id };
    if (asked) value.except = `^${asked.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
    parts.push(asked ? { value, from: [ids], note: `not listed for ${asked}` } : { value, from: [ids] });
  }
  return parts.length ? { tools: parts } : {};
}
