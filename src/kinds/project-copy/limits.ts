/** How many project copies one partition keeps (see ../limits.ts). */
export const MAX_PROJECT_COPIES = 256;
