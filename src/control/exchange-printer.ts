/**
 * The terminal's view of what happens: a reader of every partition's log that prints one line per exchange
 * (for people, coloured on a terminal) or one JSON object per line (for machines), as Prism prints each
 * exchange with its validation warnings. It reads the log like the journal does, so it sees exactly what the
 * journal shows, secrets already masked there. Its cost on the request path is bounded: the first exchange of
 * a turn of the event loop is written at once, the others of that turn wait in a bounded queue for one write
 * after it (`flush`); a function given as the format is always called after the turn, never inside a request.
 */
import type { Violation } from '../openapi/violation.js';
import type { ExchangeLogFormat, ExchangeLogOption, ExchangeLogOptions, ExchangeRecord } from '../config/options.js';
import type { EventLog, ExchangeEntry } from '../state/log.js';
import { isoTime } from '../text/iso-time.js';

// Declared with the options (`logExchanges` takes them), below this module.
export type { ExchangeLogFormat, ExchangeLogOption, ExchangeLogOptions, ExchangeRecord };

export interface ExchangePrinter {
  /** Prints the exchanges of this partition's log from now on. */
  read(log: EventLog, partition: string): void;
  /** Writes whatever waits, now (the simulator closing). */
  flush(): void;
}

export interface PrinterContext {
  /** Where lines go: standard output unless told otherwise. */
  out?: Pick<NodeJS.WritableStream, 'write'> & { isTTY?: boolean };
  /** Masks the secret values clients sent wherever they turn up (the log masks them by name already). */
  scrub?: (text: string) => string;
  /** Colour or not; decided from the output and the environment when not given. */
  colour?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Where a failing `logExchanges` function is reported. */
  log?: (line: string) => void;
}

/**
 * Lines waiting for the next write. A terminal slower than the requests loses lines, never memory: past this
 * many the rest are counted and the count printed instead.
 */
export const MAX_PENDING = 10_000;
/** A violation's sentence is cut here: the line is a summary, the journal has the whole. */
const SHORT = 100;
const DEFAULT_PARTITION = 'default';

export function readExchangeLogOption(option: ExchangeLogOption): ExchangeLogOptions {
  return typeof option === 'object' ? option : { format: option };
}

/**
 * Colour by the conventions terminals share: FORCE_COLOR (not `0` or `false`) forces it, NO_COLOR (any
 * non-empty value) or TERM=dumb turns it off, else colour exactly when the output is a terminal.
 * FORCE_COLOR wins over NO_COLOR, as in Node's own `hasColors()`.
 */
export function wantsColour(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.NODE_DISABLE_COLORS !== undefined && env.NODE_DISABLE_COLORS !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

export function createExchangePrinter(option: ExchangeLogOption, context: PrinterContext = {}): ExchangePrinter {
  const { format, headers } = readExchangeLogOption(option);
  const out = context.out ?? process.stdout;
  const scrub = context.scrub ?? ((text: string) => text);
  const log = context.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const colour = context.colour ?? wantsColour(context.env ?? process.env, out.isTTY === true);
  let pending: Array<{ entry: ExchangeEntry; partition: string; sides?: ExchangeRecord['request'][] }> = [];
  let dropped = 0;
  let scheduled: NodeJS.Immediate | undefined;

  const text = (records: ExchangeRecord[], lost: number) => {
    let text = '';
    for (const record of records)
      text += `${format === 'json' ? JSON.stringify(record) : formatExchangeLine(record, { colour })}\n`;
    if (lost)
      text +=
        format === 'json'
          ? `${JSON.stringify({ notPrinted: lost })}\n`
          : `(${lost} exchange${lost === 1 ? '' : 's'} not printed: the output could not keep up)\n`;
    return scrub(text);
  };

  const hand = (fn: (record: ExchangeRecord) => void, records: ExchangeRecord[]) => {
    for (const record of records) {
      const json = JSON.stringify(record);
      const scrubbed = scrub(json);
      try {
        fn(scrubbed === json ? record : (JSON.parse(scrubbed) as ExchangeRecord));
      } catch (error) {
        // A reader's mistake must not take the simulator down from a callback nobody awaits.
        log(`[logExchanges] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    }
  };

  /** Writes what waits; the turn that follows starts afresh (its first exchange is written at once). */
  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (!pending.length && !dropped) return;
    const batch = pending;
    pending = [];
    const records = batch.map(({ entry, partition, sides }) => exchangeRecord(entry, partition, sides));
    const lost = dropped;
    dropped = 0;
    if (typeof format === 'function') hand(format, records);
    else out.write(text(records, lost));
  };

  return {
    read(log, partition) {
      log.subscribe((entry) => {
        if (entry.kind !== 'exchange') return;
        if (pending.length >= MAX_PENDING) {
          dropped++;
          return;
        }
        // The headers are read now: the log lets go of an exchange's details after a while.
        const sides = headers && entry.details ? sideHeaders(entry) : undefined;
        if (scheduled === undefined && typeof format !== 'function') {
          // The first exchange of a turn is written at once, before its answer leaves: a client that sends one
          // request at a time (a person, a script) finds its line already there. The others of the same turn
          // wait for one write after it, so a busy run pays at most two writes a turn however many it answers.
          out.write(text([exchangeRecord(entry, partition, sides)], 0));
        } else {
          pending.push({ entry, partition, ...(sides ? { sides } : {}) });
        }
        scheduled ??= setImmediate(flush);
      });
    },
    flush,
  };
}

function sideHeaders(entry: ExchangeEntry): ExchangeRecord['request'][] | undefined {
  const sides = entry.details?.sides();
  return sides && [{ headers: sides.request.headers }, { headers: sides.response.headers }];
}

/** The record of an exchange: the log entry's own fields, named (its details stay out). */
export function exchangeRecord(
  entry: ExchangeEntry,
  partition: string,
  sides?: ExchangeRecord['request'][],
): ExchangeRecord {
  // Fields set one by one in the record's order: each one spread in was an object made to be thrown away.
  const record: ExchangeRecord = {
    seq: entry.seq,
    time: entry.time,
    iso: isoTime(entry.time),
    partition,
    id: entry.id,
    method: entry.method,
    path: entry.path,
  } as ExchangeRecord;
  if (entry.operationId !== undefined) record.operationId = entry.operationId;
  record.layer = entry.layer;
  record.status = entry.status;
  if (entry.tag !== undefined) record.tag = entry.tag;
  if (entry.rule !== undefined) record.rule = entry.rule;
  if (entry.outsideSpec) record.outsideSpec = true;
  if (entry.violations?.length) record.violations = entry.violations;
  if (entry.nearMiss) record.nearMiss = entry.nearMiss;
  const [request, response] = sides ?? [];
  if (request && response) Object.assign(record, { request, response });
  return record;
}

const ANSI = {
  dim: ['\u001b[2m', '\u001b[22m'],
  bold: ['\u001b[1m', '\u001b[22m'],
  red: ['\u001b[31m', '\u001b[39m'],
  green: ['\u001b[32m', '\u001b[39m'],
  yellow: ['\u001b[33m', '\u001b[39m'],
  cyan: ['\u001b[36m', '\u001b[39m'],
  magenta: ['\u001b[35m', '\u001b[39m'],
} as const;

type Paint = (style: keyof typeof ANSI, text: string) => string;

/**
 * `09:00:06.000 req_000002 GET /api/session/ses_x → 404 NotFoundError v2.session.get (scenario)`, then, where
 * they apply, `1 violation: answer body: …` and the rule (`(rule: runtime rule rul_1)`); a partition other
 * than the default is named in brackets after the time. With `request`/`response`, their headers follow on
 * indented lines.
 */
export function formatExchangeLine(record: ExchangeRecord, { colour = false } = {}): string {
  const paint: Paint = colour ? (style, text) => `${ANSI[style][0]}${text}${ANSI[style][1]}` : (_s, text) => text;
  const statusColour =
    record.status === 0 || record.status >= 500
      ? 'red'
      : record.status >= 400
        ? 'yellow'
        : record.status >= 300
          ? 'cyan'
          : 'green';
  // Written as one string rather than parts joined: a line for each exchange is on a busy recorder's path.
  let line = paint('dim', record.iso.slice(11, 23));
  if (record.partition !== DEFAULT_PARTITION) line += ` ${paint('magenta', `[${record.partition}]`)}`;
  line += ` ${paint('dim', record.id)} ${paint('bold', record.method)} ${record.path} → `;
  line += paint(statusColour, record.status === 0 ? 'dropped' : String(record.status));
  if (record.tag !== undefined) line += ` ${paint(statusColour, record.tag)}`;
  line += ` ${record.operationId ?? '-'} `;
  line += paint('dim', `(${record.layer}${record.rule === undefined ? '' : `: ${record.rule}`})`);
  if (record.outsideSpec) line += ` ${paint('yellow', 'outside the spec')}`;
  const violations = record.violations ?? [];
  const first = violations[0];
  if (first) {
    const count = `${violations.length} violation${violations.length === 1 ? '' : 's'}`;
    line += ` ${paint('yellow', `${count}: ${shortViolation(first)}`)}`;
  }
  if (record.request && record.response)
    line += `\n${headerLines('>', record.request.headers)}\n${headerLines('<', record.response.headers)}`;
  return line;
}

/** `answer body: must have required property 'id'`, cut to a line's worth. */
export function shortViolation(violation: Violation): string {
  const text = `${violation.side === 'request' ? 'request' : 'answer'} ${violation.in}: ${violation.message}`;
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > SHORT ? `${flat.slice(0, SHORT - 1)}…` : flat;
}

function headerLines(mark: string, headers: Record<string, string>): string {
  const names = Object.keys(headers);
  return names.length ? names.map((name) => `    ${mark} ${name}: ${headers[name]}`).join('\n') : `    ${mark} (none)`;
}
