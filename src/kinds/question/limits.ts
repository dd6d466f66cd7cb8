/** How many questions one partition keeps (see ../limits.ts). */
export const MAX_QUESTIONS = 1_000;
