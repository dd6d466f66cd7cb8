/**
 * A recording's world, inferred: what its traffic shows existing becomes initial state, what it shows
 * changing becomes a lifecycle. The project is the scenario's own; every other section is a kind's, each
 * kind inferring its own in the registry's order (so a form can declare the session it names, an attempt
 * the integration it belongs to). Each part keeps the interactions it came from. What no lifecycle explains
 * is left to scenario-from, which holds the result against the recording and scripts the rest as rules.
 */
import { KINDS } from '../kinds/registry.js';
import { emptyInference, isObject, SECTIONS, type Inference, type JsonObject, type Part } from './parts.js';
import type { Timeline } from './timeline.js';

export async function inferScenario(timeline: Timeline): Promise<Inference> {
  const inference = emptyInference();
  const project = projectOf(timeline);
  if (project) inference.project.push(project);
  for (const kind of KINDS.list) {
    const infer = await kind.infer?.();
    for (const [section, parts] of Object.entries(infer?.(timeline, inference) ?? {})) {
      const into = inference[section];
      if (!into) throw new Error(`kind ${kind.name} inferred "${section}", which is not a section of the scenario`);
      into.push(...parts);
    }
  }
  return inference;
}

/** The project: `location.project` of an answer about the project itself. */
function projectOf(timeline: Timeline): Part | undefined {
  for (const step of timeline.steps) {
    if (!step.operation || step.stream || !isObject(step.answer)) continue;
    const location = step.answer.location as
      { directory?: string; project?: { id: string; directory: string } } | undefined;
    const project = location?.project;
    if (project && project.id !== 'global' && project.directory.startsWith('/'))
      return { value: { directory: project.directory, id: project.id }, from: [step], whole: true };
  }
  return undefined;
}

/** The inference as a scenario object, in the format's order. */
export function scenarioOf(
  inference: Inference,
  name: string,
  origin: number,
  extra: { description?: string } = {},
): JsonObject {
  const scenario: JsonObject = { name };
  if (extra.description) scenario.description = extra.description;
  scenario.seed = name;
  scenario.start = new Date(origin).toISOString();
  for (const section of SECTIONS) {
    const parts = inference[section] ?? [];
    const [first] = parts;
    if (!first) continue;
    scenario[section] = first.whole ? first.value : parts.map((p) => p.value);
  }
  return scenario;
}
