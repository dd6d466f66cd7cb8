/** How many worktrees one partition keeps (see ../limits.ts). */
export const MAX_WORKTREES = 256;
