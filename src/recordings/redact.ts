/**
 * Redaction before anything touches disk: secret headers, query values and JSON fields are replaced by a
 * fixed placeholder. The same redaction runs on live requests before replay matching, so a recording made
 * with one key replays for any key.
 */
import { remember } from '../caches/bounded-map.js';
import { flatHeaders, type Exchange } from '../exchange/exchange.js';

export const REDACTED = '[REDACTED]';

export interface RedactionRules {
  headers: string[];
  query: string[];
  /** JSON pointers into request and response bodies, e.g. `/key`. */
  pointers: string[];
}

export const DEFAULT_REDACTION: RedactionRules = {
  headers: ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-sim-admin-token'],
  query: ['auth_token', 'admin_token'],
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

/** Each rule set's secret header names as a set: every recorded exchange and every one kept for the inspector asks. */
const secretHeaderSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** A copy of the headers with each secret one's value replaced. */
export function redactHeaders(headers: Record<string, string>, rules: RedactionRules): Record<string, string> {
  let secret = secretHeaderSets.get(rules.headers);
  if (!secret) secretHeaderSets.set(rules.headers, (secret = new Set(rules.headers)));
  const copy: Record<string, string> = {};
  for (const name in headers) copy[name] = secret.has(name.toLowerCase()) ? REDACTED : (headers[name] as string);
  return copy;
}

export function redactQuery(
  query: Record<string, string | string[]>,
  rules: RedactionRules,
): Record<string, string | string[]> {
  // The query itself when it holds no secret, as `redactBody` does: a replay reads this for every interaction.
  let redacted: Record<string, string | string[]> | undefined;
  for (const name in query) {
    if (!rules.query.includes(name)) continue;
    const value = query[name] as string | string[];
    redacted ??= { ...query };
    redacted[name] = Array.isArray(value) ? value.map(() => REDACTED) : REDACTED;
  }
  return redacted ?? query;
}

/**
 * The body with every configured pointer that exists replaced: a copy when one does, the body itself when
 * none does (most bodies hold no secret, and copying each one would cost every recorded or shown exchange).
 */
export function redactBody(body: unknown, rules: RedactionRules): unknown {
  if (typeof body === 'string') return redactText(body, rules);
  if (typeof body !== 'object' || body === null) return body;
  let present: string[][] | undefined;
  for (const pointer of rules.pointers) {
    const parts = pointerParts(pointer);
    if (parts.length > 0 && parentOf(body, parts) !== undefined) (present ??= []).push(parts);
  }
  if (!present) return body;
  const copy = structuredClone(body);
  for (const parts of present)
    (parentOf(copy, parts) as Record<string, unknown>)[parts[parts.length - 1] as string] = REDACTED;
  return copy;
}

/**
 * A body that is not JSON (a form-encoded `key=…`, JSON cut short) cannot be walked by pointer: the field a
 * pointer ends in is masked wherever it reads as a JSON member or a form field.
 */
function redactText(text: string, rules: RedactionRules): string {
  let out = text;
  for (const name of new Set(rules.pointers.map((p) => pointerParts(p).at(-1)).filter((n): n is string => !!n))) {
    const quoted = escapeRegExp(JSON.stringify(name));
    out = out
      .replace(new RegExp(`(${quoted}\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"?`, 'g'), `$1"${REDACTED}"`)
      .replace(
        new RegExp(`(^|&)(${escapeRegExp(encodeURIComponent(name))}=)[^&]*`, 'g'),
        `$1$2${encodeURIComponent(REDACTED)}`,
      );
  }
  return out;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Pointers read, by their text: the same few configured ones are read for every body redacted. */
const pointers = new Map<string, string[]>();
const KEPT_POINTERS = 256;

function pointerParts(pointer: string): string[] {
  return remember(pointers, KEPT_POINTERS, pointer, () =>
    pointer
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')),
  );
}

/** The object holding the pointer's last key, when the whole path exists. */
function parentOf(body: unknown, parts: readonly string[]): object | undefined {
  let node: unknown = body;
  for (const part of parts.slice(0, -1))
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  const last = parts[parts.length - 1] as string;
  return typeof node === 'object' && node !== null && last in node ? node : undefined;
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
export function redactedRequestHead(
  exchange: Pick<Exchange, 'method' | 'pathname' | 'searchParams' | 'headers'>,
  rules: RedactionRules,
) {
  return {
    method: exchange.method,
    path: exchange.pathname,
    query: redactQuery(queryOf(exchange.searchParams), rules),
    headers: redactHeaders(flatHeaders(exchange.headers), rules),
  };
}

/** A URL as it may be shown or written: user and password (`http://alice:pw@host`) left out. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}
