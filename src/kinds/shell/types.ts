/** The shell kind's shapes: a scenario command's definition, its live state and its events. */
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

export interface ShellState {
  readonly definition: ShellDefinition;
  status: ShellStatus;
  /** The current timeout deadline; a timeout update replaces it. */
  deadline?: number;
  completed?: number;
  exit?: number;
}

export type ShellStatus = 'scheduled' | 'running' | 'exited' | 'timeout';

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly shells: readonly ShellDefinition[];
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    readonly shells: Map<string, ShellState>;
  }
  interface WorldSnapshot {
    /** `deadline`: when a running shell times out (virtual ms), null when it does not. */
    shells: Array<{ id: string; state: ShellStatus; deadline: number | null }>;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    /** A scenario command starts; published with the command's record (`shell.created {info}`). */
    'shell.created': { id: string };
    'shell.exited': { id: string; status: 'exited' | 'timeout'; exit?: number };
    /** sim: a running shell's timeout replaced (0 clears it), counted from the event's time. */
    'shell.timeout.updated': { id: string; timeout: number };
  }
}

declare module '../../state/resource-states.js' {
  interface KindStates {
    shell: ShellStatus;
  }
}
