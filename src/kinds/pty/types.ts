/** The PTY kind's shapes: a terminal's definition (a scenario's, or one created on request), its state and events. */
type Json = Record<string, unknown>;
export interface PtyDefinition {
  readonly record: Record<string, unknown> & { id: string };
}

export interface PtyState {
  readonly definition: PtyDefinition;
  status: 'running' | 'exited';
  /** When a command that is not an interactive shell ends by itself (virtual time). */
  exitsAt?: number;
  exitCode?: number;
}

declare module '../../scenarios/definition.js' {
  interface ScenarioSections {
    readonly ptys: readonly PtyDefinition[];
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    readonly ptys: Map<string, PtyState>;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    'pty.created': { info: Json & { id: string } };
    'pty.exited': { id: string; exitCode: number };
  }
}
