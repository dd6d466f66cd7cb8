/**
 * What inference produces: the parts of a scenario, each with the interactions (and events) it came from, so
 * the written YAML can say where every part came from. The parts and the helpers the kinds' inference shares
 * live in src/kinds/inference.ts; the sections are the scenario's own around the kinds' in the registry's order.
 */
import { formatDuration, type Inference, type Part } from '../kinds/inference.js';
import { KINDS } from '../kinds/registry.js';
import { describeStep } from './timeline.js';

export {
  between,
  dataOf,
  formatDuration,
  instant,
  isObject,
  tagOf,
  trusted,
  type Inference,
  type JsonObject,
  type Part,
} from '../kinds/inference.js';

/** Scenario sections in the order the format documents them; each holds parts (one per item, or one whole). */
export const SECTIONS: readonly string[] = [
  'project',
  ...KINDS.list.flatMap((kind) => Object.keys(kind.format?.properties ?? {})),
  'rules',
];

export function emptyInference(): Inference {
  return Object.fromEntries(SECTIONS.map((s) => [s, []])) as unknown as Inference;
}

/** `from #3 POST /api/session, #5 GET …` (at most a handful, then a count), for a YAML comment. */
export function provenance(part: Part): string {
  const seen = new Set<number>();
  const steps = part.from.filter((s) => !seen.has(s.seq) && seen.add(s.seq)).sort((a, b) => a.seq - b.seq);
  const shown = steps.slice(0, 4).map(describeStep);
  if (steps.length > 4) shown.push(`and ${steps.length - 4} more`);
  const eventTypes = [...new Set((part.events ?? []).map((e) => `${e.type} at ${formatDuration(e.at)}`))].slice(0, 3);
  const sources = [
    shown.length ? `from ${shown.join(', ')}` : '',
    eventTypes.length ? `events: ${eventTypes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return [sources, part.note].filter(Boolean).join('\n');
}
