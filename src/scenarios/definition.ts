import type { ProjectContext } from '../openapi/location.js';
import type { ResourceState, StatefulKind } from '../state/resource-states.js';

export interface RuleDefinition {
  readonly operation: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: Readonly<Record<string, unknown>>;
  readonly after?: number;
  readonly before?: number;
  /** Resource states that must hold: kind → {id, is}. */
  readonly state?: { readonly [K in StatefulKind]?: { readonly id: string; readonly is: ResourceState<K> } };
  /** Meaningless when `drop` is set (then 0): a dropped connection has no status. */
  readonly status: number;
  /** The body; absent for a bodiless answer and for `drop`. */
  readonly answer?: unknown;
  /** Destroy the connection without an answer, as a crashed server would; only ever `true` when present. */
  readonly drop?: boolean;
  /** Wall-clock milliseconds to wait before answering (or dropping). */
  readonly delay: number;
  readonly times?: number;
  /** Where the rule is written, for the journal's explanation. */
  readonly where: string;
}

/**
 * What the kinds add to a scenario: each its sections, as definitions (src/kinds/<kind>/types.ts adds them
 * here by declaration merging).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by each kind
export interface ScenarioSections {}

/**
 * A scenario as loaded: immutable, every duration resolved to virtual milliseconds since the epoch, every
 * id and timestamp filled in, every record already valid against the spec.
 */
export interface ScenarioDefinition extends ScenarioSections {
  readonly name: string;
  readonly description?: string;
  readonly file: string;
  readonly seed: string;
  readonly start: number;
  /** Its `start` was written in it; without one it starts at DEFAULT_START, or at the wall clock's now in real time. */
  readonly pinnedStart?: boolean;
  /** The scenario as written (JSON), so that it can be read again at another start (`rebaseScenario`). */
  readonly source?: Readonly<Record<string, unknown>>;
  /** The project its partition serves instead of the simulator's own (`--project-dir`); its id is filled in. */
  readonly project?: ProjectContext;
  readonly rules: readonly RuleDefinition[];
}

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
