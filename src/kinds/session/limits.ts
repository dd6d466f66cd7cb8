/** How many of a session's resources one partition keeps (see ../limits.ts). */
export const SESSION_LIMITS = {
  /** Well above the 1,000 a frontend's session list is benchmarked with. */
  session: 10_000,
  /** Messages of one session (a turn adds several). */
  message: 20_000,
  /** Requests of one partition waiting for a session to go idle. */
  waiting: 256,
  /** Prompts waiting for their turn in one session (a client's, or a synthetic message with resume). */
  queuedPrompt: 64,
  /** Prompts waiting for their turn over all of one partition's sessions. */
  partitionQueuedPrompt: 4_096,
} as const;
