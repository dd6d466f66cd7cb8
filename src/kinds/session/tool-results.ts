/**
 * What the real tools answer, and ask: a tool's result in the real tool's own shape (bash's exit, read's file,
 * the search tools' matches, the writers' changes), the question tool's answer, and the permission a call asks
 * by. The shapes are those opencode 1.18.33 sends, held to it by test/real-server/turn-fidelity-real.test.ts.
 */
import type { PlannedPart } from './types.js';

/** The tools whose calls change files in the workspace, and so the snapshot a step ends with. */
export const WRITES = new Set(['edit', 'write', 'apply_patch', 'multiedit']);

export const inputPath = (input: Readonly<Record<string, unknown>>): string | undefined => {
  const path = input.path ?? input.filePath;
  return typeof path === 'string' ? path : undefined;
};

/** The permission the real tools ask by (the writers ask for edit) and what it names: command, path, pattern. */
export function toolPermission(
  tool: string,
  input: Readonly<Record<string, unknown>>,
): { action: string; resource: string } {
  const value = tool === 'bash' ? input.command : (inputPath(input) ?? input.pattern);
  return { action: WRITES.has(tool) ? 'edit' : tool, resource: typeof value === 'string' ? value : '*' };
}

type JsonObject = Record<string, unknown>;
export type ToolPart = Extract<PlannedPart, { kind: 'tool' }>;
type TextContent = { type: 'text'; text: string };

const text = (value: string): TextContent => ({ type: 'text', text: value });
const lines = (value: string | undefined) => (value ?? '').split('\n').filter((l) => l.trim() !== '');

/**
 * What a tool answers, in the real tools' shapes (bash's exit, read's file, the search tools' matches, the
 * writers' changes); the script's `result` is the text, its `structured` is laid over the tool's own.
 */
export function toolOutcome(part: ToolPart, directory: string): { structured: JsonObject; content: TextContent[] } {
  const result = part.result;
  const path = inputPath(part.input) ?? '';
  const absolute = path.startsWith('/') ? path : `${directory.replace(/\/+$/, '')}/${path}`;
  const own = (): { structured: JsonObject; content: TextContent[] } => {
    switch (part.tool) {
      case 'bash': {
        // The real bash tool answers every exit: an error is what a failing command printed, and its status.
        const failed = part.error !== undefined;
        const exit = typeof part.structured?.exit === 'number' ? part.structured.exit : failed ? 1 : 0;
        return {
          structured: { exit, truncated: false },
          content: [text((failed ? part.error : result) || '(no output)'), text(`Command exited with code ${exit}.`)],
        };
      }
      case 'read':
        return {
          structured: {
            uri: `file://${absolute}`,
            name: path.split('/').pop() ?? path,
            content: result ?? '',
            encoding: 'utf8',
            mime: 'text/plain',
          },
          content: [],
        };
      case 'glob':
        return {
          structured: { value: lines(result).map((p) => ({ path: p, type: 'file' })) },
          content: [text(result ?? '')],
        };
      case 'grep': {
        const pattern = typeof part.input.pattern === 'string' ? part.input.pattern : '';
        // Matches as the real tool lists them ("file:" then "  Line N: text"), or as grep prints them.
        let file = '';
        const value = lines(result).flatMap((line) => {
          const grep = /^(.+?):(\d+):(.*)$/.exec(line);
          const listed = /^\s+Line (\d+): (.*)$/.exec(line);
          if (!grep && !listed && line.endsWith(':')) file = line.slice(0, -1);
          const match = grep
            ? { path: grep[1], line: grep[2], text: grep[3] }
            : listed && { path: file, line: listed[1], text: listed[2] };
          if (!match) return [];
          const found = (match.text as string).indexOf(pattern);
          return [
            {
              entry: { path: match.path, type: 'file' },
              line: Number(match.line),
              offset: 0,
              text: `${match.text}\n`,
              submatches: found < 0 ? [] : [{ text: pattern, start: found, end: found + pattern.length }],
            },
          ];
        });
        return { structured: { value }, content: [text(result ?? '')] };
      }
      case 'write':
        return {
          structured: { operation: 'write', target: absolute, resource: path, existed: false },
          content: [text(result ?? `Created file successfully: ${path}`)],
        };
      case 'edit':
        return {
          structured: {
            files: [{ file: path, patch: '', additions: 1, deletions: 1, status: 'modified' }],
            replacements: 1,
          },
          content: [text(result ?? `Edited file successfully: ${path}`)],
        };
      default:
        return { structured: {}, content: result === undefined ? [] : [text(result)] };
    }
  };
  const outcome = own();
  return { ...outcome, structured: { ...outcome.structured, ...(part.structured ?? {}) } };
}

/** The question tool's answer, as the real one words it. */
export function questionOutcome(
  input: JsonObject,
  answers: string[][],
): { structured: JsonObject; content: TextContent[] } {
  const questions = Array.isArray(input.questions) ? (input.questions as Array<{ question?: unknown }>) : [];
  const pairs = questions.map((q, i) => `"${String(q.question ?? '')}"="${(answers[i] ?? []).join(', ')}"`);
  return {
    structured: { answers },
    content: [
      text(
        `User has answered your questions: ${pairs.join(', ')}. You can now continue with the user's answers in mind.`,
      ),
    ],
  };
}

/** The message a tool fails with when its ask is rejected or its turn interrupted. */
export const TOOL_INTERRUPTED = 'Tool execution interrupted';
