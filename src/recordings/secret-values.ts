/**
 * The secret values clients have sent, kept so they can be masked wherever they turn up again. Redaction by
 * name (a header, a query value, a body pointer) covers the request as it arrives. The same value also travels
 * on: into the world (a form answer, a permission's metadata), the events the inspector shows, an upstream's
 * echo or its event stream. There it has no name to go by, only its value. Everything the simulator shows
 * or writes for people (control answers, the live stream, recordings) passes through `scrub`.
 */
import { headerText, type Exchange } from '../exchange/exchange.js';
import { escapeRegExp, redactBody, REDACTED, type RedactionRules } from './redact.js';

/** Shorter values are too likely to be ordinary words: masking them would garble what is shown. */
const MIN_LENGTH = 6;
/** The most recent values are kept; a process fed endless distinct secrets still holds a bounded set. */
const CAPACITY = 512;

export interface SecretValues {
  /** Takes note of the secret values in a request (headers, query, body fields the rules name). */
  note(exchange: Pick<Exchange, 'headers' | 'search' | 'searchParams' | 'rawBody'>): void;
  /** The text with every noted value, raw or as it reads inside a JSON string, masked. */
  scrub(text: string): string;
  /** A JSON value scrubbed the same way (the value itself when nothing was noted). */
  scrubValue<T>(value: T): T;
  readonly size: number;
}

export function createSecretValues(rules: RedactionRules): SecretValues {
  const values = new Set<string>();
  let pattern: RegExp | undefined;
  const add = (value: string) => {
    if (value.length < MIN_LENGTH || values.has(value)) return;
    values.add(value);
    if (values.size > CAPACITY) values.delete(values.values().next().value as string);
    pattern = undefined;
  };
  // Body fields the rules name appear as their last key: checking for it first spares parsing most bodies.
  const fieldNames = rules.pointers.map((p) => JSON.stringify(p.split('/').at(-1) ?? ''));

  const scrub = (text: string): string => {
    if (values.size === 0) return text;
    pattern ??= new RegExp(
      [...values]
        .flatMap((v) => [v, JSON.stringify(v).slice(1, -1)])
        .map(escapeRegExp)
        .sort((a, b) => b.length - a.length)
        .join('|'),
      'g',
    );
    return text.replace(pattern, REDACTED);
  };

  return {
    note(exchange) {
      // Only the names the rules give are looked at: this runs for every request.
      for (const name of rules.headers) {
        const value = headerText(exchange.headers[name]);
        if (value === undefined) continue;
        add(value);
        // `Bearer X`, `Basic base64(user:password)`: the credential alone, and a Basic password decoded.
        const credential = /^\w+ +(\S+)$/.exec(value)?.[1];
        if (credential) add(credential);
        if (/^basic /i.test(value) && credential) addBasic(credential);
        if (name === 'cookie' || name === 'set-cookie')
          for (const pair of value.split(';')) add(pair.slice(pair.indexOf('=') + 1).trim());
      }
      // Most requests carry none of these names in their query (as sent: one escaped is looked up).
      const { search } = exchange;
      const escaped = search.includes('%');
      for (const name of rules.query) {
        if (!escaped && !search.includes(name)) continue;
        for (const value of exchange.searchParams.getAll(name)) {
          add(value);
          addBasic(value);
        }
      }
      if (exchange.rawBody.length && fieldNames.some((name) => exchange.rawBody.includes(name))) {
        let body: unknown;
        try {
          body = JSON.parse(exchange.rawBody.toString('utf8'));
        } catch {
          return;
        }
        walkRedacted(body, redactBody(body, rules), add);
      }
    },
    scrub,
    scrubValue<T>(value: T): T {
      if (values.size === 0 || value === undefined) return value;
      const text = JSON.stringify(value);
      const scrubbed = scrub(text);
      return scrubbed === text ? value : (JSON.parse(scrubbed) as T);
    },
    get size() {
      return values.size;
    },
  };

  function addBasic(token: string): void {
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0 && Buffer.from(decoded, 'utf8').toString('base64').replace(/=+$/, '') === token.replace(/=+$/, ''))
      add(decoded.slice(colon + 1));
  }
}

/** Calls `found` with every string the redaction replaced. */
function walkRedacted(original: unknown, masked: unknown, found: (value: string) => void): void {
  if (masked === REDACTED && typeof original === 'string') found(original);
  else if (
    typeof original === 'object' &&
    original !== null &&
    typeof masked === 'object' &&
    masked !== null &&
    original !== masked
  ) {
    for (const key of Object.keys(original))
      walkRedacted((original as Record<string, unknown>)[key], (masked as Record<string, unknown>)[key], found);
  }
}
