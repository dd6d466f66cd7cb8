/**
 * Redaction before anything touches disk: secret headers, query values and JSON fields are replaced by a
 * fixed placeholder. The same redaction runs on live requests before replay matching, so a recording made
 * with one key replays for any key.
 */
import { flatHeaders, type Exchange } from '../http/io.js';

export const REDACTED = '[REDACTED]';

export interface RedactionRules {
  headers: string[];
  query: string[];
  /** JSON pointers into request and response bodies, e.g. `/key`. */
  pointers: string[];
}

export const DEFAULT_REDACTION: RedactionRules = {
  headers: ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'],
  query: ['auth_token'],
  // The provider key of POST /api/integration/{id}/connect/key.
  pointers: ['/key'],
};

export function mergeRedaction(extra: Partial<RedactionRules>): RedactionRules {
  return {
    headers: [...DEFAULT_REDACTION.headers, ...(extra.headers ?? []).map((h) => h.toLowerCase())],
    query: [...DEFAULT_REDACTION.query, ...(extra.query ?? [])],
    pointers: [...DEFAULT_REDACTION.pointers, ...(extra.pointers ?? [])],
  };
}

export function redactHeaders(headers: Record<string, string>, rules: RedactionRules): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, rules.headers.includes(name.toLowerCase()) ? REDACTED : value]));
}

export function redactQuery(query: Record<string, string | string[]>, rules: RedactionRules): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, rules.query.includes(name) ? (Array.isArray(value) ? value.map(() => REDACTED) : REDACTED) : value]));
}

/** A copy of the body with every configured pointer that exists replaced. */
export function redactBody(body: unknown, rules: RedactionRules): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const copy = structuredClone(body) as Record<string, unknown>;
  for (const pointer of rules.pointers) {
    const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop();
    if (last === undefined) continue;
    let node: unknown = copy;
    for (const part of parts) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
    if (typeof node === 'object' && node !== null && last in node) (node as Record<string, unknown>)[last] = REDACTED;
  }
  return copy;
}

/** Every secret value in a request, for making sure none of them reaches a log line or an error. */
export function secretValues(headers: Record<string, string>, query: Record<string, string | string[]>, body: unknown, rules: RedactionRules): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(headers)) if (rules.headers.includes(name.toLowerCase())) found.push(value);
  for (const [name, value] of Object.entries(query)) if (rules.query.includes(name)) found.push(...(Array.isArray(value) ? value : [value]));
  const redacted = JSON.stringify(redactBody(body, rules));
  const walk = (original: unknown, masked: unknown) => {
    if (masked === REDACTED && typeof original === 'string') found.push(original);
    else if (typeof original === 'object' && original !== null && typeof masked === 'object' && masked !== null) {
      for (const key of Object.keys(original)) walk((original as Record<string, unknown>)[key], (masked as Record<string, unknown>)[key]);
    }
  };
  walk(body, JSON.parse(redacted ?? 'null'));
  return found.filter((v) => v.length > 0);
}

/** Query values by name (a repeated name keeps every value), as a recording and the inspector keep them. */
export function queryOf(searchParams: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name of new Set(searchParams.keys())) {
    const values = searchParams.getAll(name);
    out[name] = values.length === 1 ? (values[0] as string) : values;
  }
  return out;
}

/** A request's method, path, query and headers as anything that keeps them has them: secrets masked. */
export function redactedRequestHead(exchange: Pick<Exchange, 'method' | 'pathname' | 'searchParams' | 'headers'>, rules: RedactionRules) {
  return {
    method: exchange.method,
    path: exchange.pathname,
    query: redactQuery(queryOf(exchange.searchParams), rules),
    headers: redactHeaders(flatHeaders(exchange.headers), rules),
  };
}
