/** How many permission requests and saved answers one partition keeps (see ../limits.ts). */
export const PERMISSION_LIMITS = {
  permission: 1_000,
  savedPermission: 1_000,
} as const;
