/**
 * The PTY kind's shapes: a terminal's definition (a scenario's, or one created on request), its script (what
 * typing into it answers), its live state (output kept for replay, the line being typed, connections, connect
 * tickets) and its events.
 */
type JsonObject = Record<string, unknown>;

/** What a typed line answers, where the scenario says so (before the built-in commands are asked). */
export interface PtyReply {
  /** The line as typed, spaces around it aside. */
  readonly input?: string;
  /** Or a regular expression the line matches. */
  readonly match?: string;
  /** Printed as the command's output (`\n` reaches the terminal as `\r\n`). */
  readonly output: string;
  /** The command's exit status (`$?`); 0 unless said. */
  readonly exitCode: number;
}

/** How a terminal answers what is typed into it. */
export interface PtyScript {
  /** A shell runs typed lines as commands; another program only has them echoed, as a terminal does. */
  readonly interactive: boolean;
  /** The shell's prompt, bash escapes (`\w`, `\W`, `\u`, `\h`, `\$`) expanded as it is printed. */
  readonly prompt: string;
  readonly replies: readonly PtyReply[];
  /** The shell's name, as its messages start (`bash: x: command not found`). */
  readonly shell: string;
  /** A login shell says `logout` as it exits (the real server starts POSIX shells with `-l`). */
  readonly login: boolean;
}

export interface PtyDefinition {
  /** The record as it started (`PtySession`): its title and status are the live state's. */
  readonly record: JsonObject & { id: string };
  /** The absolute directory of the location that holds it; absent: the project directory, decided when served. */
  readonly directory?: string;
  readonly script: PtyScript;
  /** What the terminal had printed by the scenario's start (a banner, a transcript, the prompt). */
  readonly output: string;
  /** A scenario PTY that had already exited at the start, with its exit code. */
  readonly exitCode?: number;
}

/** The line editor and shell state a terminal carries between keystrokes. */
export interface TerminalState {
  /** The line typed so far, not yet entered. */
  readonly line: string;
  readonly cwd: string;
  /** The last command's exit status (`$?`, and what `exit` alone exits with). */
  readonly status: number;
  /** An escape sequence (an arrow key) begun in one message and not finished in it. */
  readonly escape: string;
}

export interface PtyState {
  readonly definition: PtyDefinition;
  title: string;
  size?: { rows: number; cols: number };
  status: 'running' | 'exited';
  /** When a command that is not an interactive shell ends by itself (virtual time). */
  exitsAt?: number;
  exitCode?: number;
  /** The most recent output, kept for replay on connect (PTY_LIMITS.ptyOutput characters at most). */
  output: string;
  /** How many characters of output came before `output` (let go of past the bound): a cursor counts from 0. */
  dropped: number;
  terminal: TerminalState;
  /** WebSocket connections open on it now. */
  connections: number;
  /** Connect tickets not used yet: ticket → when it expires (virtual time). */
  tickets: Map<string, number>;
}

export type PtyStatus = PtyState['status'];

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly ptys: readonly PtyDefinition[];
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    readonly ptys: Map<string, PtyState>;
  }
  interface WorldSnapshot {
    ptys: Array<{ id: string; state: PtyStatus; exitCode?: number; connections?: number }>;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    /** metadata: `directory` (the location's, absolute) and `exitsAt` (a command that ends by itself). */
    'pty.created': { info: JsonObject & { id: string } };
    /** metadata: `size` when the viewport changed. */
    'pty.updated': { info: JsonObject & { id: string } };
    'pty.exited': { id: string; exitCode: number };
    'pty.deleted': { id: string };
    /** sim: what the terminal printed (echo, a command's answer, the next prompt) and its state after it. */
    'pty.output': { id: string; output: string; terminal: TerminalState };
    /** sim: a WebSocket connection opened on the PTY, or closed. */
    'pty.connected': { id: string };
    'pty.disconnected': { id: string };
    /** sim: a connect ticket issued (single use, until `expires`), and used. */
    'pty.ticket.issued': { id: string; ticket: string; expires: number };
    'pty.ticket.used': { id: string; ticket: string };
  }
}

declare module '../../state/resource-states.js' {
  interface KindStates {
    pty: PtyStatus;
  }
}
