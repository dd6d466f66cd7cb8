/**
 * The control API's admin token. On loopback the control plane is open (it is how a test drives the
 * simulator); reachable from other machines, it would let anyone on the network rewrite the world, read the
 * journal or switch scenarios, so it asks for a token. Scripts send it as a header; a browser opens the
 * inspector once with `?admin_token=` and keeps it in an HttpOnly cookie for the page's own requests.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { SimAdminTokenError } from '../errors.js';
import type { Exchange } from './io.js';

export const ADMIN_HEADER = 'x-sim-admin-token';
export const ADMIN_QUERY = 'admin_token';
const ADMIN_COOKIE = 'sim_admin_token';

/**
 * Throws SimAdminTokenError unless the request carries the token; returns the headers to answer with (the
 * cookie, when the token came in the query).
 */
export function requireAdminToken(exchange: Pick<Exchange, 'headers' | 'searchParams'>, token: string): Record<string, string> {
  const bearer = /^Bearer +(\S+) *$/i.exec(headerText(exchange.headers.authorization))?.[1];
  const fromQuery = exchange.searchParams.get(ADMIN_QUERY) ?? undefined;
  const presented = [headerText(exchange.headers[ADMIN_HEADER]) || undefined, bearer, cookie(headerText(exchange.headers.cookie), ADMIN_COOKIE), fromQuery];
  // Every candidate is compared, so the time taken does not tell which place held the right one.
  const results = presented.map((candidate) => candidate !== undefined && same(candidate, token));
  if (results.some(Boolean)) return results[3] ? { 'set-cookie': `${ADMIN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict` } : {};
  throw new SimAdminTokenError(presented.some((candidate) => candidate !== undefined));
}

function same(candidate: string, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(candidate), digest(token));
}

function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
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
