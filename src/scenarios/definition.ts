import type { ProjectContext } from '../openapi/location.js';
import type { ResourceState, StatefulKind } from '../state/resource-states.js';

/**
 * A scenario as loaded: immutable, every duration resolved to virtual milliseconds since the epoch, every
 * id and timestamp filled in, every record already valid against the spec.
 */
export interface Window {
  from: number;
  until?: number;
}

export type MessageRecord = Record<string, unknown> & { id: string; time: { created: number }; type: string };

export interface RevertFile {
  file: string;
  patch: string;
  additions: number;
  deletions: number;
}

/**
 * One thing an agent turn does, as the scenario's `turns:` script says (durations in milliseconds; what is
 * absent takes the defaults of src/resources/turns.ts).
 */
export type TurnStep =
  | {
      readonly kind: 'reasoning' | 'text';
      readonly text: string;
      readonly after?: number;
      readonly chunk?: number;
      readonly every?: number;
    }
  | {
      readonly kind: 'tool';
      readonly tool: string;
      readonly input: Readonly<Record<string, unknown>>;
      /** What the tool answers (its text content); `error` instead makes the call fail. */
      readonly result?: string;
      readonly error?: string;
      readonly structured?: Readonly<Record<string, unknown>>;
      readonly takes?: number;
      readonly after?: number;
      readonly chunk?: number;
      readonly every?: number;
    }
  | { readonly kind: 'fail'; readonly message: string; readonly after?: number }
  | {
      readonly kind: 'retry';
      readonly message: string;
      readonly statusCode?: number;
      readonly attempt?: number;
      readonly wait?: number;
      readonly after?: number;
    };

export interface TurnScript {
  readonly steps: readonly TurnStep[];
}

export interface SessionDefinition {
  readonly id: string;
  readonly title?: string;
  /** When the session is created (virtual time); before it, it does not exist. */
  readonly appears: number;
  readonly busy: readonly Window[];
  /** How long a generated turn plays (a scripted one takes what its script says); natural length when absent. */
  readonly busyAfterSynthetic?: number;
  /** Scripted turns, played in order by synthetic messages with resume; generated turns follow. */
  readonly turns: readonly TurnScript[];
  readonly messages: readonly MessageRecord[];
  readonly revert?: { snapshot?: string; files?: RevertFile[] };
  readonly questions: readonly string[];
}

export type FormRecord = Record<string, unknown> & {
  id: string;
  sessionID: string;
  title: string;
  mode: 'form' | 'url';
};

export interface FormDefinition {
  readonly record: FormRecord;
  readonly appears: number;
  readonly cancelled?: number;
}

export interface ShellDefinition {
  readonly id: string;
  readonly command: string;
  /** Absent: the simulator's project directory (`--project-dir`), decided when served. */
  readonly cwd?: string;
  readonly shell: string;
  readonly pid: number;
  /** Absent: `/tmp/session-agent/shell/<id>.log`. */
  readonly file?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** May be before the scenario's start: the command is then already running when the world begins. */
  readonly started: number;
  /** Virtual time the timeout fires, if any. */
  readonly deadline?: number;
  readonly completes?: { at: number; exit: number };
}

export interface AttemptDefinition {
  readonly id: string;
  readonly integrationID: string;
  /** May be before the scenario's start. */
  readonly created: number;
  readonly expires: number;
  readonly settles?: {
    readonly as: 'complete' | 'failed';
    /** The poll (1-based) that first answers the outcome. */
    readonly poll?: number;
    /** The virtual time from which polls answer the outcome. */
    readonly at?: number;
    readonly message?: string;
    readonly credential?: { id: string; label?: string };
  };
}

export interface PtyDefinition {
  readonly record: Record<string, unknown> & { id: string };
}

/** A listed directory's direct children, as `GET /api/fs/list` answers them (paths relative to the project). */
export type FileTree = ReadonlyMap<string, ReadonlyArray<{ path: string; type: 'file' | 'directory' }>>;

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

export interface ScenarioDefinition {
  readonly name: string;
  readonly description?: string;
  readonly file: string;
  readonly seed: string;
  readonly start: number;
  /** The project its partition serves instead of the simulator's own (`--project-dir`); its id is filled in. */
  readonly project?: ProjectContext;
  readonly sessions: readonly SessionDefinition[];
  readonly forms: readonly FormDefinition[];
  readonly shells: readonly ShellDefinition[];
  readonly integrations: ReadonlyArray<
    Record<string, unknown> & { id: string; connections: Array<Record<string, unknown>> }
  >;
  readonly attempts: readonly AttemptDefinition[];
  readonly ptys: readonly PtyDefinition[];
  readonly references: ReadonlyArray<Record<string, unknown>>;
  readonly plugins: readonly string[];
  readonly files: FileTree;
  readonly model?: Record<string, unknown>;
  readonly projectCopy: { error?: { message: string; forceRequired?: boolean } };
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
