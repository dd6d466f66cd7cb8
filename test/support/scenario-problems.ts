import { ScenarioError } from '../../src/scenarios/definition.js';
import { parseScenario } from '../../src/scenarios/load-scenario.js';
import type { SpecIndex } from '../../src/openapi/openapi.js';

/** A scenario text's problems as `line:col message`; [] when it loads. */
export function scenarioProblems(spec: SpecIndex, text: string): string[] {
  try {
    parseScenario(text, '<test>', spec);
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems.map((p) => `${p.line}:${p.col} ${p.message}`);
    throw error;
  }
  return [];
}
