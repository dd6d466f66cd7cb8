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
  readonly cwd: string;
  readonly shell: string;
  readonly pid: number;
  readonly started: number;
  /** Virtual time the timeout fires, if any. */
  readonly deadline?: number;
  readonly completes?: { at: number; exit: number };
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
