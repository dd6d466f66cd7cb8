/**
 * Finds the operation a request addresses. Paths are few (the interface has 23 operations), so a linear
 * scan over pre-split templates is both simplest and fast; literal segments outrank parameters so a fixed
 * path never loses to a template. A template ending in a literal `*` (the real server's `/api/fs/read/*`)
 * takes the rest of the path, slashes and all, as its parameter `*`.
 */
import type { OperationHint } from '../errors/errors.js';
import { keepBounded } from '../caches/bounded-map.js';
import type { OperationDefinition, SpecIndex } from './openapi.js';

export type RouteResult =
  | { kind: 'found'; operation: OperationDefinition; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: OperationHint[] }
  | { kind: 'not-found'; closest: OperationHint[] };

/** Routes found, per spec, by method and path: a client asks for the same few paths again and again. */
const found = new WeakMap<SpecIndex, Map<string, RouteResult>>();
const FOUND_CAPACITY = 4096;

export function findOperation(spec: SpecIndex, method: string, pathname: string): RouteResult {
  let known = found.get(spec);
  if (!known) found.set(spec, (known = new Map()));
  const key = `${method} ${pathname}`;
  const hit = known.get(key);
  // Each request gets parameters of its own: nothing one request's steps do to them reaches the next.
  if (hit?.kind === 'found') return { ...hit, params: { ...hit.params } };
  const result = scanOperations(spec, method, pathname);
  if (result.kind === 'found') keepBounded(known, FOUND_CAPACITY, key, { ...result, params: { ...result.params } });
  return result;
}

function scanOperations(spec: SpecIndex, method: string, pathname: string): RouteResult {
  const segments = pathname.split('/').slice(1);
  let best: { operation: OperationDefinition; params: Record<string, string>; literals: number } | undefined;
  const otherMethods: OperationDefinition[] = [];
  for (const operation of spec.operations) {
    const match = matchTemplate(operation.segments, segments);
    if (!match) continue;
    if (operation.method !== method) {
      otherMethods.push(operation);
      continue;
    }
    if (!best || match.literals > best.literals) best = { operation, ...match };
  }
  if (best) return { kind: 'found', operation: best.operation, params: best.params };
  if (otherMethods.length) return { kind: 'method-not-allowed', allowed: otherMethods.map(hintOf) };
  return { kind: 'not-found', closest: closestOperations(spec, method, segments) };
}

/** The parameter a trailing `*` segment fills: the rest of the path, each segment decoded. */
export const REST_PARAM = '*';

function matchTemplate(
  template: string[],
  actual: string[],
): { params: Record<string, string>; literals: number } | undefined {
  const rest = template[template.length - 1] === REST_PARAM;
  if (rest ? actual.length < template.length : template.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  let literals = 0;
  // The rest may be empty (`/api/fs/read/`): the operation is still the one asked for, and says what is missing.
  if (rest)
    params[REST_PARAM] = actual
      .slice(template.length - 1)
      .map(safeDecode)
      .join('/');
  for (let i = 0; i < template.length - (rest ? 1 : 0); i++) {
    const t = template[i] as string;
    const a = actual[i] as string;
    if (t.startsWith('{') && t.endsWith('}')) {
      if (a === '') return undefined;
      params[t.slice(1, -1)] = safeDecode(a);
    } else if (t === a) {
      literals++;
    } else {
      return undefined;
    }
  }
  return { params, literals };
}

/** A percent-decoded path segment, or the segment as sent when it does not decode (`%zz`): never a throw. */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Up to three operations that look most like what was asked, for "did you mean" hints. */
function closestOperations(spec: SpecIndex, method: string, segments: string[]): OperationHint[] {
  const scored = spec.operations.map((operation) => ({ operation, score: similarity(operation, method, segments) }));
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.operation.path.localeCompare(b.operation.path))
    .slice(0, 3)
    .map((s) => hintOf(s.operation));
}

function similarity(operation: OperationDefinition, method: string, segments: string[]): number {
  let score = 0;
  const n = Math.max(operation.segments.length, segments.length);
  for (let i = 0; i < n; i++) {
    const t = operation.segments[i];
    const a = segments[i];
    if (t === undefined || a === undefined) score -= 1;
    else if (t === a) score += 3;
    else if (t.startsWith('{')) score += 1;
    else if (nearlyEqual(t, a)) score += 2;
  }
  if (operation.method === method) score += 1;
  return score;
}

/** A typo (one edit, or a plural) still counts as a near match. */
function nearlyEqual(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  let j = 0;
  while (j < a.length - i && a[a.length - 1 - j] === b[b.length - 1 - j]) j++;
  return a.length - i - j <= 1 && b.length - i - j <= 1;
}

export function hintOf(operation: OperationDefinition): OperationHint {
  return { operationId: operation.operationId, method: operation.method, path: operation.path };
}
