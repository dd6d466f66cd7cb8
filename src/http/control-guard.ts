/**
 * Who may use the control plane (`/__sim`). It can rewrite the world, read the journal and switch scenarios.
 * - Reachable from other machines (or given a token), it asks for the admin token. Scripts send it as a header;
 *   a browser opens the inspector once with `?admin_token=` and keeps it in an HttpOnly cookie.
 * - On loopback it is open to this machine's programs, which is how a test drives it, but not to web pages of
 *   other sites that the developer's browser happens to run: a request whose Origin is not a loopback page, or
 *   whose Host is not a loopback name (DNS rebinding), is refused.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { SimAdminTokenError, SimForeignOriginError } from '../errors/errors.js';
import { isLoopback } from '../config/config.js';
import { headerText, type Exchange } from '../exchange/exchange.js';

export const ADMIN_HEADER = 'x-sim-admin-token';
export const ADMIN_QUERY = 'admin_token';
const ADMIN_COOKIE = 'sim_admin_token';

/**
 * Throws unless the request may use the control plane; returns the headers to answer with (the cookie, when
 * the token came in the query).
 */
export function guardControl(
  exchange: Pick<Exchange, 'headers' | 'searchParams'>,
  adminToken: string | undefined,
): Record<string, string> {
  if (adminToken !== undefined) return requireAdminToken(exchange, adminToken);
  const origin = headerText(exchange.headers.origin) ?? '';
  if (origin !== '' && !isLoopback(hostOf(origin))) throw new SimForeignOriginError(`a page from ${origin}`);
  const host = headerText(exchange.headers.host) ?? '';
  if (host !== '' && !isLoopback(hostOf(`http://${host}`)))
    throw new SimForeignOriginError(`a request for host ${host}`);
  return {};
}

/** The hostname of a URL, brackets kept off an IPv6 address; nothing when it does not parse. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return '';
  }
}

function requireAdminToken(
  exchange: Pick<Exchange, 'headers' | 'searchParams'>,
  token: string,
): Record<string, string> {
  const bearer = /^Bearer +(\S+) *$/i.exec(headerText(exchange.headers.authorization) ?? '')?.[1];
  const fromQuery = exchange.searchParams.get(ADMIN_QUERY) ?? undefined;
  const presented = [
    headerText(exchange.headers[ADMIN_HEADER]) || undefined,
    bearer,
    cookie(headerText(exchange.headers.cookie) ?? '', ADMIN_COOKIE),
    fromQuery,
  ];
  // Every candidate is compared, so the time taken does not tell which place held the right one.
  const results = presented.map((candidate) => candidate !== undefined && same(candidate, token));
  if (results.some(Boolean))
    return results[3]
      ? { 'set-cookie': `${ADMIN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict` }
      : {};
  throw new SimAdminTokenError(presented.some((candidate) => candidate !== undefined));
}

function same(candidate: string, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(candidate), digest(token));
}

function cookie(header: string, name: string): string | undefined {
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(pair.slice(at + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
