/**
 * Durations as people write them in scenarios: `250ms`, `30s`, `5m`, `1h`, `1m30s`, or a number of ms; and
 * instants: a duration from a start, or an ISO 8601 date-time.
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;

export function parseDuration(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  const text = value.trim();
  if (text === '') return undefined;
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  let match: RegExpExecArray | null;
  while ((match = PART.exec(text))) {
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
    consumed = PART.lastIndex; // a failed exec resets lastIndex, so remember how far the parts reached
  }
  return consumed === text.length ? total : undefined;
}

/** The JSON Schema pattern of the same grammar, for the scenario format. */
export const DURATION_PATTERN = '^(\\d+(\\.\\d+)?(ms|s|m|h))+$';

/**
 * An instant as virtual time: a duration counts from `start`; a date-time is itself, so it can name a moment
 * before the start, which no duration can. Undefined for anything else (and for a date-time the format
 * accepts but Date cannot read, such as a leap second).
 */
export function parseInstant(value: string | number, start: number): number | undefined {
  const duration = parseDuration(value);
  if (duration !== undefined) return start + duration;
  if (typeof value === 'number') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}
