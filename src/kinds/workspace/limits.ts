/** How many workspaces one partition keeps (see ../limits.ts). */
export const MAX_WORKSPACES = 256;
