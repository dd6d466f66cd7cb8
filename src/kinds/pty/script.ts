/**
 * What a PTY's terminal answers and has printed: the script a command gets (a shell runs what is typed,
 * another program only echoes it), and the output a scenario's PTY starts with (banner, transcript, prompt).
 */
import { posix } from 'node:path';
import { crlf, renderPrompt } from './terminal.js';
import type { PtyReply, PtyScript, TerminalState } from './types.js';

/** Shells the real server starts as login shells (it appends `-l` to their args). */
export const POSIX_SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);
/** Commands that wait for a person at the terminal rather than end by themselves. */
export const INTERACTIVE_SHELLS = new Set([...POSIX_SHELLS, 'fish', 'nu', 'pwsh']);
export const DEFAULT_PROMPT = '$ ';

/** Whether a command is a shell left open for its user, not one given a command to run (`sh -c "…"`). */
export function isInteractive(command: string, args: readonly string[]): boolean {
  return INTERACTIVE_SHELLS.has(posix.basename(command)) && !args.includes('-c');
}

export function scriptFor(
  command: string,
  args: readonly string[],
  given: { prompt?: string; replies?: readonly PtyReply[] } = {},
): PtyScript {
  return {
    interactive: isInteractive(command, args),
    prompt: given.prompt ?? DEFAULT_PROMPT,
    replies: given.replies ?? [],
    shell: posix.basename(command),
    login: args.includes('-l') || args.includes('--login'),
  };
}

/** A terminal as it starts: nothing typed, in its cwd, the last status 0. */
export function freshTerminal(cwd: string): TerminalState {
  return { line: '', cwd, status: 0, escape: '' };
}

/** One command of a transcript: the line typed at the prompt, and what it printed. */
export interface TranscriptEntry {
  input: string;
  output?: string;
}

/**
 * What a terminal has printed by the time it is first seen: its banner, then its transcript (text as printed,
 * or commands shown at the prompt with their output), then the prompt it waits at if it is a running shell.
 */
export function startingOutput(
  script: PtyScript,
  cwd: string,
  parts: { banner?: string; transcript?: string | readonly TranscriptEntry[]; running: boolean },
): string {
  const prompt = renderPrompt(script.prompt, cwd);
  let out = crlf(parts.banner ?? '');
  if (typeof parts.transcript === 'string') out += crlf(parts.transcript);
  else
    for (const entry of parts.transcript ?? []) {
      const printed = crlf(entry.output ?? '');
      out += `${prompt}${entry.input}\r\n${printed === '' || printed.endsWith('\r\n') ? printed : `${printed}\r\n`}`;
    }
  return script.interactive && parts.running ? out + prompt : out;
}
