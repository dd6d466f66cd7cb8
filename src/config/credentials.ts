/**
 * The credentials the simulator asks for as the real server does with a password (`--auth`): how a setting
 * is read, apart from how a request is checked against them (src/http/auth.ts), so the configuration can
 * read them without the HTTP layer.
 */
/** The real server's user name when only a password is set (OPENCODE_SERVER_USERNAME overrides it there). */
export const DEFAULT_AUTH_USER = 'opencode';

export interface Credentials {
  user: string;
  password: string;
}

/** As a caller gives them: `user:password`, a password alone (user `opencode`), or both spelled out. */
export type AuthOption = string | { user?: string; password: string };

/**
 * The credentials an `auth` setting means, or what is wrong with it (`is empty`), for the caller to put in
 * its own words. The user ends at the first colon, as in Basic itself (RFC 7617: a user name cannot hold a
 * colon, a password can). The password is never echoed: these sentences reach terminals and logs.
 */
export function readCredentials(value: AuthOption): Credentials | { problem: string } {
  if (typeof value === 'object' && value !== null) {
    const user = value.user ?? DEFAULT_AUTH_USER;
    if (typeof value.password !== 'string' || value.password === '') return { problem: 'has no password' };
    if (typeof user !== 'string' || user === '' || user.includes(':'))
      return { problem: 'needs a user that is not empty and holds no colon' };
    return { user, password: value.password };
  }
  if (typeof value !== 'string' || value === '') return { problem: 'is empty' };
  const colon = value.indexOf(':');
  if (colon < 0) return { user: DEFAULT_AUTH_USER, password: value };
  const user = value.slice(0, colon);
  const password = value.slice(colon + 1);
  if (user === '') return { problem: 'names no user before the colon' };
  if (password === '') return { problem: 'has no password after the colon' };
  return { user, password };
}

/** How to write the setting, for the sentence that refuses a bad one. */
export const AUTH_FORMS = '"user:password", or a password alone for user opencode';
