/** How many OAuth attempts one partition keeps (see ../limits.ts). */
export const MAX_ATTEMPTS = 256;
