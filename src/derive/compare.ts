/**
 * Compares a recorded answer with the one a scenario gives, as a person reviewing them would: the same
 * status, the same `_tag`, then field by field. Three kinds of value cannot be equal across two servers and
 * are compared for what they mean instead:
 * - ids minted while the recording was made (a created PTY, a message appended by an agent switch): the
 *   first time a recorded id meets a scenario id at the same place they are paired, and every later
 *   occurrence must keep the pairing, in answers and (translated) in the requests that follow;
 * - instants (`time.created`, `timestamp`, …): equal within a tolerance, since the scenario stamps a request's
 *   virtual instant while the real server stamped some milliseconds into handling it;
 * - process ids: any integer.
 * Cursors are base64url JSON naming ids; they are compared decoded. The wording of InvalidRequestError is
 * the simulator's own (written in the spec's decisions), so for it only `_tag` and `kind` count.
 */
import { isObject } from './parts.js';

export interface Departure {
  /** In the API's terms: `status`, `_tag`, `data[0].time.created`. */
  field: string;
  recorded: unknown;
  scenario: unknown;
}

/** Recorded ids and the scenario ids they stand for, both ways (a pairing is one to one). */
export interface Correspondence {
  toScenario: Map<string, string>;
  toRecorded: Map<string, string>;
}

export function createCorrespondence(): Correspondence {
  return { toScenario: new Map(), toRecorded: new Map() };
}

/** Ids as the real server mints them: prefix, 12 hex digits of time, 14 of base62. */
const ID = /^[a-z]+_[0-9a-f]{12}[0-9A-Za-z]{14}$/;
const ID_IN_TEXT = /([a-z]+_[0-9a-f]{12}[0-9A-Za-z]{14})/;
const INSTANT_KEYS = new Set(['created', 'updated', 'started', 'completed', 'expires', 'timestamp', 'timeCreated']);
const ANY_INTEGER_KEYS = new Set(['pid']);

export interface CompareOptions {
  /** How far apart two instants may be and still be the same moment, in ms. */
  toleranceMs: number;
}

export function compareAnswers(
  recorded: { status: number; body: unknown },
  scenario: { status: number; body: unknown },
  ids: Correspondence,
  options: CompareOptions,
): Departure | undefined {
  if (recorded.status !== scenario.status)
    return { field: 'status', recorded: recorded.status, scenario: scenario.status };
  const tag = (body: unknown) => (isObject(body) ? body._tag : undefined);
  if (tag(recorded.body) !== tag(scenario.body))
    return { field: '_tag', recorded: tag(recorded.body), scenario: tag(scenario.body) };
  if (tag(recorded.body) === 'InvalidRequestError') {
    const kind = (body: unknown) => (body as { kind?: unknown }).kind;
    return kind(recorded.body) === kind(scenario.body)
      ? undefined
      : { field: 'kind', recorded: kind(recorded.body), scenario: kind(scenario.body) };
  }
  return compareValues(recorded.body, scenario.body, '', ids, options);
}

function compareValues(
  recorded: unknown,
  scenario: unknown,
  path: string,
  ids: Correspondence,
  options: CompareOptions,
): Departure | undefined {
  const key = lastKey(path);
  const departs = (): Departure => ({ field: path || '(body)', recorded, scenario });
  if (typeof recorded === 'number' && typeof scenario === 'number') {
    if (ANY_INTEGER_KEYS.has(key))
      return Number.isInteger(recorded) === Number.isInteger(scenario) ? undefined : departs();
    if (INSTANT_KEYS.has(key)) return Math.abs(recorded - scenario) <= options.toleranceMs ? undefined : departs();
    return recorded === scenario ? undefined : departs();
  }
  if (typeof recorded === 'string' && typeof scenario === 'string')
    return sameText(recorded, scenario, ids, options) ? undefined : departs();
  if (Array.isArray(recorded) && Array.isArray(scenario)) {
    for (let i = 0; i < Math.min(recorded.length, scenario.length); i++) {
      const departure = compareValues(recorded[i], scenario[i], `${path}[${i}]`, ids, options);
      if (departure) return departure;
    }
    return recorded.length === scenario.length
      ? undefined
      : { field: `${path}.length`, recorded: recorded.length, scenario: scenario.length };
  }
  if (isObject(recorded) && isObject(scenario)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(scenario)])];
    for (const k of keys) {
      const inner = path ? `${path}.${k}` : k;
      if (!(k in scenario)) return { field: inner, recorded: recorded[k], scenario: undefined };
      if (!(k in recorded)) return { field: inner, recorded: undefined, scenario: scenario[k] };
      const departure = compareValues(recorded[k], scenario[k], inner, ids, options);
      if (departure) return departure;
    }
    return undefined;
  }
  return Object.is(recorded, scenario) ? undefined : departs();
}

/** Equal text, text that differs only in paired ids, or cursors (base64url JSON) equal once decoded. */
function sameText(recorded: string, scenario: string, ids: Correspondence, options: CompareOptions): boolean {
  if (recorded === scenario) return true;
  if (ID.test(recorded) && ID.test(scenario)) return pair(recorded, scenario, ids);
  const decodedRecorded = decodeJsonToken(recorded);
  const decodedScenario = decodeJsonToken(scenario);
  if (decodedRecorded !== undefined && decodedScenario !== undefined)
    return compareValues(decodedRecorded, decodedScenario, '', ids, options) === undefined;
  const a = recorded.split(ID_IN_TEXT);
  const b = scenario.split(ID_IN_TEXT);
  if (a.length === 1 || a.length !== b.length) return false;
  // split with a capture group puts the ids at the odd indexes
  return a.every((part, i) => (i % 2 === 1 ? pair(part, b[i] as string, ids) : part === b[i]));
}

/** Pairs two ids of the same kind, or holds them to the pairing already made. */
function pair(recorded: string, scenario: string, ids: Correspondence): boolean {
  if (recorded === scenario) return !ids.toScenario.has(recorded) || ids.toScenario.get(recorded) === scenario;
  if (recorded.split('_')[0] !== scenario.split('_')[0]) return false;
  const known = ids.toScenario.get(recorded);
  if (known !== undefined) return known === scenario;
  if (ids.toRecorded.has(scenario)) return false;
  ids.toScenario.set(recorded, scenario);
  ids.toRecorded.set(scenario, recorded);
  return true;
}

/** A base64url token holding a JSON object (the API's cursors), decoded; undefined for anything else. */
export function decodeJsonToken(text: string): Record<string, unknown> | undefined {
  if (text.length < 16 || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A recorded request's value with the recorded ids it names replaced by the scenario's: path segments, query
 * values, body strings, and ids inside cursors.
 */
export function translate<T>(value: T, ids: Correspondence): T {
  if (ids.toScenario.size === 0) return value;
  if (typeof value === 'string') return translateText(value, ids) as T;
  if (Array.isArray(value)) return value.map((v) => translate(v, ids) as unknown) as T;
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, translate(v, ids)])) as T;
  return value;
}

function translateText(text: string, ids: Correspondence): string {
  const token = decodeJsonToken(text);
  if (token) return Buffer.from(JSON.stringify(translate(token, ids))).toString('base64url');
  return text
    .split(ID_IN_TEXT)
    .map((part, i) => (i % 2 === 1 ? (ids.toScenario.get(part) ?? part) : part))
    .join('');
}

function lastKey(path: string): string {
  const match = /([A-Za-z_$][\w$]*)$/.exec(path);
  return match ? (match[1] as string) : '';
}

/** A value as a report shows it: JSON, shortened. */
export function shown(value: unknown): string {
  if (value === undefined) return 'absent';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
