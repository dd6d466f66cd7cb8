/** How many credentials one partition keeps (see ../limits.ts). */
export const MAX_CREDENTIALS = 256;
