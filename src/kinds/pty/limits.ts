/** How much of its terminals one partition keeps (see ../limits.ts). */
export const PTY_LIMITS = {
  pty: 256,
  /** Open terminal connections of one partition. */
  ptyConnection: 64,
  /** Output one PTY keeps for replay on connect, in characters (UTF-16 units, as its cursor counts them). */
  ptyOutput: 1 << 20,
  /** Connect tickets issued and neither used nor expired yet. */
  ptyTicket: 1_000,
} as const;
