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

export interface SessionDefinition {
  readonly id: string;
  readonly title?: string;
  readonly busy: readonly Window[];
  readonly busyAfterSynthetic?: number;
  readonly messages: readonly MessageRecord[];
  readonly revert?: { snapshot?: string; files?: RevertFile[] };
  readonly questions: readonly string[];
}

export type FormRecord = Record<string, unknown> & { id: string; sessionID: string; title: string; mode: 'form' | 'url' };

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
  readonly started: number;
  /** Virtual time the timeout fires, if any. */
  readonly deadline?: number;
  readonly completes?: { at: number; exit: number };
}

export interface AttemptDefinition {
  readonly id: string;
  readonly integrationID: string;
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
  readonly state?: Readonly<Partial<Record<'session' | 'form' | 'shell' | 'attempt', { id: string; is: string }>>>;
  readonly status: number;
  readonly answer?: unknown;
  /** Wall-clock milliseconds to wait before answering. */
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
  readonly sessions: readonly SessionDefinition[];
  readonly forms: readonly FormDefinition[];
  readonly shells: readonly ShellDefinition[];
  readonly integrations: ReadonlyArray<Record<string, unknown> & { id: string; connections: Array<Record<string, unknown>> }>;
  readonly attempts: readonly AttemptDefinition[];
  readonly ptys: readonly PtyDefinition[];
  readonly references: ReadonlyArray<Record<string, unknown>>;
  readonly plugins: readonly string[];
  readonly files: FileTree;
  readonly model?: Record<string, unknown>;
  readonly projectCopy: { error?: { message: string; forceRequired?: boolean } };
  readonly rules: readonly RuleDefinition[];
}

/** One thing wrong with a scenario file, where it is. */
export interface ScenarioProblem {
  file: string;
  line: number;
  col: number;
  message: string;
}

export class ScenarioError extends Error {
  constructor(readonly problems: ScenarioProblem[]) {
    super(problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`).join('\n'));
  }
}
