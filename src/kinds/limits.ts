/**
 * How many of each resource clients create a partition keeps. Every kind whose resources a request can
 * create checks its table against its bound here before it decides, so memory stays bounded under abuse;
 * beyond the bound the client gets SimResourceLimitError, as beyond the partitions' bound.
 */
import { SimResourceLimitError } from '../errors/sim-errors.js';

export const LIMITS = {
  /** Well above the 1,000 a frontend's session list is benchmarked with. */
  session: 10_000,
  /** Messages of one session (a turn adds several). */
  message: 20_000,
  pty: 256,
  /** Open terminal connections of one partition. */
  ptyConnection: 64,
  /** Output one PTY keeps for replay on connect, in characters (UTF-16 units, as its cursor counts them). */
  ptyOutput: 1 << 20,
  /** PTY connect tickets issued and neither used nor expired yet. */
  ptyTicket: 1_000,
  permission: 1_000,
  savedPermission: 1_000,
  question: 1_000,
  attempt: 256,
  credential: 256,
  workspace: 256,
  worktree: 256,
  /** Requests of one partition waiting for a session to go idle. */
  waiting: 256,
  /** Prompts waiting for their turn in one session (a client's, or a synthetic message with resume). */
  queuedPrompt: 64,
  /** Prompts waiting for their turn over all of one partition's sessions. */
  partitionQueuedPrompt: 4_096,
  projectCopy: 256,
} as const;

export type Limited = keyof typeof LIMITS;

/** Throws SimResourceLimitError when a table already holds as many as its bound allows. */
export function ensureRoom(what: Limited, held: number, noun: string = what): void {
  if (held >= LIMITS[what]) throw new SimResourceLimitError(noun, LIMITS[what]);
}
