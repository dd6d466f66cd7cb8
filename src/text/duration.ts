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
  // Hundreds of digits read as Infinity: no amount of time, however the text looks.
  return consumed === text.length && Number.isFinite(total) ? total : undefined;
}

/**
 * The last instant a Date can hold, in ms since the epoch (ECMAScript's time values end at ±8.64e15). Virtual
 * time must stay within it: past it `new Date(now).toISOString()` throws, and every answer that stamps a time
 * with it fails.
 */
export const MAX_TIME = 8.64e15;

/** `MAX_TIME` as an ISO date-time, for messages. */
export const MAX_TIME_ISO = new Date(MAX_TIME).toISOString();

/** `5000 ms`, with a rough larger unit beside it when that says more (`(about 3 years)`). */
export function describeMs(ms: number): string {
  const larger = (
    [
      [365.25 * 86_400_000, 'year'],
      [86_400_000, 'day'],
      [3_600_000, 'hour'],
    ] as const
  ).find(([unit]) => ms >= 2 * unit);
  if (!larger) return `${ms} ms`;
  const [unit, name] = larger;
  return `${ms} ms (about ${Math.floor(ms / unit).toLocaleString('en-US')} ${name}s)`;
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
