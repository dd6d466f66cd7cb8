// Declared in src/state/ so that the world and the kinds, below the loader, can name them.
export type { RuleDefinition, ScenarioDefinition, ScenarioSections, StreamFault } from '../state/scenario.js';

/**
 * One thing wrong with a scenario (or a run-time rule), where it is. Text has positions; a value given as an
 * object has none, so its problems have `line` and `col` 0 and say where they are through `path` alone.
 */
export interface ScenarioProblem {
  /** The file, or the label of what was checked (`inline scenario`, `runtime rule rul_1`). */
  file: string;
  line: number;
  col: number;
  /** The place in the checked value, `sessions[0].busy[1].until` (empty: the value itself); not part of `message`. */
  path?: string;
  message: string;
}

export class ScenarioError extends Error {
  constructor(readonly problems: ScenarioProblem[]) {
    // In file order, so a reader fixes them top to bottom (problems without a position keep theirs).
    problems.sort((a, b) => (a.line > 0 && b.line > 0 ? a.line - b.line || a.col - b.col : 0));
    super(problems.map(describeProblem).join('\n'));
  }
}

/** `file:line:col: message` for text, `label: path: message` for an object. */
export function describeProblem(p: ScenarioProblem): string {
  if (p.line > 0) return `${p.file}:${p.line}:${p.col}: ${p.message}`;
  return p.path ? `${p.file}: ${p.path}: ${p.message}` : `${p.file}: ${p.message}`;
}
