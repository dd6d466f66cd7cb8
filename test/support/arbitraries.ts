/**
 * fast-check arbitraries for fuzzing the simulator over the wire, aimed at the operations the spec declares:
 * adversarial strings, path segments, query strings (deep `location[…]` keys, repeated keys, huge values),
 * header sets (`Prefer`, `X-Sim-Partition`, content types, random names) and request bodies. Bodies are built
 * as JSON text, not serialised from values, so duplicate and `__proto__` keys, huge number literals, deep
 * nesting and broken JSON are sent exactly as written.
 */
import fc from 'fast-check';
import { FRM, MSG, QUE, SES, SH, UNSAMPLED, validRequests, type SampleRequest } from './requests.js';
import { declaredStatuses, exampleNames, operations, parameters, requestBody } from './spec-validator.js';

// ---- The operations, read from the spec -------------------------------------------------------------

export interface TargetOperation {
  operationId: string;
  method: string;
  /** The path template, e.g. `/api/session/{sessionID}/message`. */
  template: string;
  /** A valid request for it (test/support/requests.ts). */
  sample: SampleRequest;
  /** Path parameter names by their segment index in the template. */
  pathParams: { name: string; index: number }[];
  queryParams: string[];
  takesLocation: boolean;
  body?: { required: boolean; properties: string[] };
  /** Declared statuses, and the named examples of each (for `Prefer`). */
  statuses: number[];
  examples: string[];
}

/** The event stream never ends: it is fuzzed nowhere here (test/integration/event-stream.test.ts covers it). */
export const EVENT_STREAM = 'v2.event.subscribe';

/** Answers that never end (the event streams, the PTY's WebSocket) or wait on the clock are fuzzed nowhere here. */
export const TARGETS: TargetOperation[] = operations
  .filter((o) => !UNSAMPLED.has(o.operationId))
  .map((o) => {
    const sample = validRequests[o.operationId];
    if (!sample) throw new Error(`test/support/requests.ts has no valid request for ${o.operationId}`);
    const params = parameters(o.operationId);
    const templateSegments = o.path.split('/');
    const body = requestBody(o.operationId);
    const statuses = declaredStatuses(o.operationId);
    return {
      operationId: o.operationId,
      method: o.method,
      template: o.path,
      sample,
      pathParams: templateSegments.flatMap((s, index) =>
        s.startsWith('{') && s.endsWith('}') ? [{ name: s.slice(1, -1), index }] : [],
      ),
      queryParams: params.filter((p) => p.in === 'query').map((p) => p.name as string),
      takesLocation: params.some((p) => p.in === 'query' && p.name === 'location'),
      body: body && { required: body.required, properties: Object.keys(body.schema?.properties ?? {}) },
      statuses,
      examples: [...new Set(statuses.flatMap((s) => exampleNames(o.operationId, s)))],
    };
  });

// ---- Strings ------------------------------------------------------------------------------------------

/** Strings that have broken parsers, routers, validators and templating before. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '  ',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'NaN',
  '-NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0',
  '00',
  '1e308',
  '1e309',
  '-1e309',
  '9007199254740993',
  '123456789012345678901234567890',
  '0x10',
  '1_000',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '[object Object]',
  '.',
  '..',
  '...',
  '../../etc/passwd',
  '..\\..\\windows',
  '%',
  '%zz',
  '%00',
  '%2F',
  '%252F',
  '%ff',
  '%c0%af',
  '%e2%80%ae',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '\ud800',
  '\udc00',
  '\ud83d',
  '😀',
  '👩‍👩‍👧‍👦',
  'é',
  'e\u0301',
  'ǅ',
  'İ',
  'ß',
  'ﬁ',
  '\u202egnp.exe',
  'مرحبا',
  '日本語',
  'Ω≈ç√',
  '${7*7}',
  '{{7*7}}',
  '#{7*7}',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '"; DROP TABLE x; --',
  '\\',
  '\\u0000',
  '"',
  'a\nb',
  'a\r\nb',
  '\t',
  'a b',
  '+',
  '&',
  '=',
  '?',
  '#',
  ';',
  ',',
  '[',
  ']',
  '[]=',
  'a[b]',
  '*',
  '@',
  ':',
  SES,
  MSG,
  FRM,
  SH,
  QUE,
  'ses_',
  'msg_',
  'frm_',
  'sh_',
  'que_',
  'per_',
  'wrk_1',
  'wrk',
  'con_',
  'cred_',
  `ses_${'x'.repeat(300)}`,
  'sh_../..',
  'msg_\u0000',
  'ses\u0000',
  'SES_dfc5ae513ffePKUBK7HkVp5zCB',
  ' ses_dfc5ae513ffePKUBK7HkVp5zCB',
];

/** A long string made of a short unit repeated (generating 100 kB character by character would be slow). */
export function longString(min: number, max: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom('a', 'é', '😀', '%', '\u0000', '[', 'ab ', '\ud800', '\\'), fc.integer({ min, max }))
    .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)));
}

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('ses_', 'msg_', 'frm_', 'sh_', 'que_', 'per', 'wrk'),
        fc.string({ unit: 'binary', maxLength: 16 }),
      )
      .map(([p, s]) => p + s),
  },
  { weight: 1, arbitrary: longString(300, 5_000) },
);

// ---- URL pieces ---------------------------------------------------------------------------------------

/** The text with lone surrogates replaced by U+FFFD, as its UTF-8 bytes carry it. */
function wellFormed(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

const hex = (ch: string) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/** Percent-encodes every UTF-8 byte of `text` but the unreserved ones (lone surrogates go as U+FFFD). */
export function percentEncode(text: string): string {
  return encodeURIComponent(wellFormed(text)).replace(/[!'()*]/g, hex);
}

/**
 * Encodes only what cannot travel in a request-target, or would end the segment or the path: `%` and `\`
 * and the sub-delimiters go raw, so invalid escapes (`%zz`) and URL normalisation are exercised too.
 */
export function looseEncode(text: string, keep: RegExp = /[!$&'()*+,;=:@%\\[\]{}|^`"<>]/): string {
  const { escapes, raw } = keptEscapes(keep);
  return percentEncode(text).replace(escapes, (escape) => raw.get(escape) as string);
}

/**
 * The escapes of the ASCII characters `keep` matches, as one pattern and their raw characters: the properties
 * encode megabytes a run, and a callback for every escape was a tenth of their time.
 */
const kept = new Map<RegExp, { escapes: RegExp; raw: Map<string, string> }>();
function keptEscapes(keep: RegExp): { escapes: RegExp; raw: Map<string, string> } {
  let found = kept.get(keep);
  if (!found) {
    const raw = new Map<string, string>();
    for (let code = 0; code < 128; code++) {
      const ch = String.fromCharCode(code);
      if (keep.test(ch)) raw.set(hex(ch), ch);
    }
    found = { escapes: new RegExp([...raw.keys()].join('|'), 'g'), raw };
    kept.set(keep, found);
  }
  return found;
}

/** One path segment as it travels: encoded strictly, loosely, or a hand-made oddity. */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: nastyString.map(percentEncode) },
  { weight: 2, arbitrary: nastyString.map((s) => looseEncode(s)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '.',
      '..',
      '%2e',
      '%2E%2e',
      '%2F',
      'a%2Fb',
      '%',
      '%zz',
      '%%',
      '%0',
      '%00',
      '%C0%AF',
      '%ED%A0%80',
      '%FF',
      ';',
      ';a=b',
      '@',
      ':',
      '~',
      '!',
      "'",
      '*',
      '%20',
      '+',
      '\\',
      '\\..',
    ),
  },
);

export function queryEncode(text: string, style: 'percent' | 'plus' | 'loose'): string {
  if (style === 'percent') return percentEncode(text);
  if (style === 'plus') return percentEncode(text).replace(/%20/g, '+');
  // `&`, `=` and `#` would split the pair or end the query: what is left raw is what URLSearchParams must cope with.
  return looseEncode(text, /[!$'()*+,;:@%\\[\]{}|^`"<>/?]/);
}

const encodingStyle = fc.constantFrom<'percent' | 'plus' | 'loose'>('percent', 'percent', 'plus', 'loose');

const locationKey = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'directory',
      'workspace',
      'project',
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      '',
      '0',
      'directory ',
      'DIRECTORY',
      ']',
      '[',
    ),
  },
  { weight: 1, arbitrary: nastyString },
);

/** One `key=value` pair (or a malformed piece) of a query string, already encoded. */
export function queryPart(target: TargetOperation): fc.Arbitrary<string> {
  const value = fc.oneof(
    { weight: 5, arbitrary: nastyString },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '/home/dev/acme-web',
        'src',
        'wrk_1',
        '2',
        'asc',
        'desc',
        '200',
        '201',
        '-1',
        '1.5',
        '1e2',
        ' 2',
      ),
    },
  );
  const ownParam = target.queryParams.length ? fc.constantFrom(...target.queryParams) : fc.constant('location');
  return fc.oneof(
    // location[a][b][c]…=v, with adversarial keys
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.array(locationKey, { minLength: 1, maxLength: 6 }), value, encodingStyle)
        .map(([keys, v, s]) => `location${keys.map((k) => `[${queryEncode(k, s)}]`).join('')}=${queryEncode(v, s)}`),
    },
    // very deep nesting, brackets raw or encoded
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 20, max: 1_500 }), fc.boolean())
        .map(([depth, raw]) => `location${(raw ? '[a]' : '%5Ba%5D').repeat(depth)}=x`),
    },
    // the operation's own parameters with adversarial values
    { weight: 4, arbitrary: fc.tuple(ownParam, value, encodingStyle).map(([k, v, s]) => `${k}=${queryEncode(v, s)}`) },
    // well-formed location values
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('directory', 'workspace'), value, encodingStyle)
        .map(([k, v, s]) => `location[${k}]=${queryEncode(v, s)}`),
    },
    // flat or bracket-broken location
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'location=/tmp',
        'location',
        'location=',
        'location[]=x',
        'location[=x',
        'location]=x',
        'location[[a]]=x',
        'location[a]b]=x',
        'location%5Bdirectory%5D=%2Ftmp',
        'LOCATION[directory]=/tmp',
        'location[directory]',
        'location[directory]=',
      ),
    },
    // random keys and bare oddities
    {
      weight: 2,
      arbitrary: fc
        .tuple(nastyString, value, encodingStyle)
        .map(([k, v, s]) => `${queryEncode(k, s)}=${queryEncode(v, s)}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '=',
        '&',
        '==',
        '=x',
        'a',
        'a=b=c',
        '%',
        '%zz=%zz',
        '+=+',
        '__proto__=1',
        '__proto__[polluted]=yes',
        'constructor[prototype][polluted]=yes',
        'a[__proto__][polluted]=yes',
        '?',
        ';',
      ),
    },
    // huge values: most stay under the simulator's header limit, some go past it
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('location[directory]', ...target.queryParams, 'x'),
          longString(1_000, 100_000),
          encodingStyle,
        )
        .map(([k, v, s]) => `${k}=${queryEncode(v, s)}`),
    },
  );
}

/** A whole query string (without `?`): several parts, some keys repeated. */
export function queryString(target: TargetOperation): fc.Arbitrary<string> {
  const part = queryPart(target);
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.array(part, { minLength: 1, maxLength: 6 }), fc.constantFrom('&', '&', '&&', ';'))
        .map(([parts, sep]) => parts.join(sep)),
    },
    // repeated keys: the same part two or more times, among others
    {
      weight: 2,
      arbitrary: fc
        .tuple(part, fc.integer({ min: 2, max: 20 }), fc.array(part, { maxLength: 3 }))
        .map(([p, n, rest]) => [...Array<string>(n).fill(p), ...rest].join('&')),
    },
    // the valid sample's query plus noise, so the rest of the request still gets past validation at times
    {
      weight: 1,
      arbitrary: fc
        .array(part, { maxLength: 2 })
        .map((parts) => [target.sample.query ?? '', ...parts].filter(Boolean).join('&')),
    },
  );
}

// ---- Headers ------------------------------------------------------------------------------------------

export type HeaderList = [name: string, value: string][];

/** Control characters (tab aside) as spaces: Node's parser refuses them in a header value. */
export function withoutControls(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    out += (code < 0x20 && code !== 0x09) || code === 0x7f ? ' ' : ch;
  }
  return out;
}

/** Header values may hold any byte but CR, LF and NUL (obs-text included: non-ASCII goes as UTF-8). */
export const headerValue: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 3, arbitrary: nastyString },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 30 }) },
  )
  .map(withoutControls);

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers that frame the message or address it: the client owns them, random ones would only break framing. */
const FRAMING = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'keep-alive',
  'http2-settings',
]);

const randomHeaderName = fc
  .oneof(
    fc.string({
      unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!#$%&'*+^`|~"),
      minLength: 1,
      maxLength: 24,
    }),
    fc.constantFrom(
      'x-forwarded-for',
      'x-forwarded-host',
      'x-http-method-override',
      'x-sim-layer',
      'x-sim-operation',
      'x-sim-rule',
      'x-sim-request-id',
      '__proto__',
      'constructor',
      'cookie',
      'authorization',
      'accept',
      'accept-encoding',
      'accept-language',
      'range',
      'if-none-match',
      'if-modified-since',
      'cache-control',
      'referer',
      'user-agent',
      'x-api-key',
      'proxy-authorization',
      'forwarded',
      'via',
      'last-event-id',
    ),
  )
  .filter(
    (n) =>
      TOKEN.test(n) &&
      !FRAMING.has(n.toLowerCase()) &&
      n.toLowerCase() !== 'prefer' &&
      n.toLowerCase() !== 'x-sim-partition',
  );

/** `Prefer` values: the operation's own statuses and examples, and everything around them. */
export function preferValue(target: TargetOperation): fc.Arbitrary<string> {
  const statuses = fc.constantFrom(...target.statuses.map(String));
  const examples = target.examples.length ? fc.constantFrom(...target.examples) : fc.constant('none');
  const piece = fc.oneof(
    { weight: 3, arbitrary: statuses.map((s) => `code=${s}`) },
    {
      weight: 1,
      arbitrary: fc.oneof(fc.integer({ min: -1, max: 1_000 }).map(String), nastyString).map((s) => `code=${s}`),
    },
    { weight: 2, arbitrary: examples.map((e) => `example=${e}`) },
    { weight: 1, arbitrary: nastyString.map((e) => `example=${e}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'dynamic=true',
        'dynamic=false',
        'dynamic',
        'dynamic=',
        'dynamic=TRUE',
        'dynamic=1',
        'dynamic="true"',
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'return=minimal',
        'return=representation',
        'respond-async',
        'wait=10',
        'handling=strict',
        'code',
        'code=',
        '=',
        'example',
        ' CODE = 404 ',
        'code="404"',
        'code=404.0',
        'code=4e2',
        'code=0x194',
        'code=+404',
      ),
    },
    { weight: 1, arbitrary: headerValue },
  );
  return fc
    .tuple(fc.array(piece, { minLength: 1, maxLength: 4 }), fc.constantFrom(', ', ',', '; ', ';', ' , '))
    .map(([pieces, sep]) => pieces.join(sep));
}

/** Partition names: a few valid ones (each creates a world, so only a few), and every kind of invalid one. */
export const partitionName: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('fuzz-a', 'fuzz.b', 'FUZZ_c', '', 'default') },
  { weight: 3, arbitrary: headerValue },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'a'.repeat(65),
      '../x',
      'a b',
      'a/b',
      '%41',
      '__proto__',
      'constructor',
      'é',
      '-',
      '.',
      '..',
    ),
  },
);

export const contentType: fc.Arbitrary<string | undefined> = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json;charset=latin1',
  'application/json; charset=utf-16',
  'application/problem+json',
  'application/vnd.api+json',
  'application/jsonx',
  'json',
  'text/json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '*/*',
  '',
  ';',
  'application/',
  '/json',
  'application/json, text/plain',
  ' application/json ',
  'application/json; a="b',
);

/** A few headers of any kind, for the operation's `Prefer` values. */
export function headerList(target: TargetOperation): fc.Arbitrary<HeaderList> {
  const header = fc.oneof(
    { weight: 3, arbitrary: preferValue(target).map((v): [string, string] => ['prefer', v]) },
    { weight: 2, arbitrary: partitionName.map((v): [string, string] => ['x-sim-partition', v]) },
    { weight: 2, arbitrary: fc.tuple(randomHeaderName, headerValue) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom(
          'accept',
          'accept-encoding',
          'origin',
          'access-control-request-method',
          'access-control-request-headers',
          'authorization',
          'cookie',
          'user-agent',
          'referer',
          'if-none-match',
          'range',
        ),
        headerValue,
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<[string, string]>(
        ['accept', 'text/html'],
        ['accept', 'application/xml'],
        ['accept-encoding', 'gzip, br'],
        ['authorization', 'Basic b3BlbmNvZGU6d3Jvbmc='],
        ['authorization', 'Bearer x'],
        ['origin', 'http://evil.example'],
        ['origin', 'null'],
        ['range', 'bytes=0-1'],
        ['x-http-method-override', 'DELETE'],
        ['Prefer', 'code=404'],
        ['PREFER', 'dynamic=true'],
        ['X-Sim-Partition', 'fuzz-a'],
        ['cookie', '__proto__=x; constructor=y'],
      ),
    },
  );
  // Node's parser refuses control characters in a value (tab aside): that refusal is paths.property.test.ts's business.
  return fc
    .array(header, { maxLength: 6 })
    .map((headers) => headers.map(([name, value]): [string, string] => [name, withoutControls(value)]));
}

// ---- JSON text ----------------------------------------------------------------------------------------

/** Number literals JSON allows that JavaScript reads badly (overflow, underflow, -0, past 2^53). */
export const NUMBER_LITERALS: readonly string[] = [
  '0',
  '-0',
  '0.0',
  '-0.0',
  '1e308',
  '-1e308',
  '1e309',
  '-1e309',
  '1E400',
  '1e-400',
  '5e-324',
  '1.7976931348623157e308',
  '4.9e-324',
  '9007199254740991',
  '9007199254740993',
  '-9007199254740993',
  '123456789012345678901234567890',
  `1${'0'.repeat(400)}`,
  '0.1',
  '1.5',
  '-1',
  '2147483648',
  '4294967296',
  '1e2',
  '1E+2',
  '10000',
];

const scalarText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: nastyString.map((s) => JSON.stringify(s)) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBER_LITERALS) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'true',
      'false',
      'null',
      '"NaN"',
      '"Infinity"',
      '"-0"',
      '"1e308"',
      '""',
      '"\\u0000"',
      '"\\ud800"',
      '"\\udfff\\ud800"',
      '[]',
      '{}',
    ),
  },
);

export const jsonKey: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'polluted',
      'toString',
      'valueOf',
      'hasOwnProperty',
      '__defineSetter__',
      'isAdmin',
      '',
      'length',
      '0',
    ),
  },
  { weight: 1, arbitrary: nastyString },
);

/** Any JSON value as text, keys adversarial (duplicates and `__proto__` included), a few levels deep. */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalarText, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
  object: fc
    .array(fc.tuple(jsonKey, tie('value')), { maxLength: 4 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
})).value;

/** The payloads that pollute a naive deep merge or assignment. */
export const POLLUTERS: readonly string[] = [
  '{"__proto__":{"polluted":"yes","isAdmin":true}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":{"__proto__":{"polluted":"yes"}}}',
  '{"__proto__":null}',
  '{"__proto__":[1,2]}',
  '{"__proto__":"polluted"}',
  '{"prototype":{"polluted":"yes"}}',
  '{"toString":"polluted","valueOf":1,"hasOwnProperty":null}',
  '[{"__proto__":{"polluted":"yes"}}]',
];

/** `depth` levels of arrays or objects around a value: past what a recursive walker survives, at the top. */
export function deepJson(depth: number, kind: 'array' | 'object' | 'mixed', inner = '1'): string {
  if (kind === 'array') return `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
  if (kind === 'object') return `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;
  const half = Math.floor(depth / 2);
  return `${'{"__proto__":['.repeat(half)}${inner}${']}'.repeat(half)}`;
}

export const deepJsonText: fc.Arbitrary<string> = fc
  .tuple(
    fc.integer({ min: 100, max: 5_000 }),
    fc.constantFrom<'array' | 'object' | 'mixed'>('array', 'object', 'mixed'),
  )
  .map(([depth, kind]) => deepJson(depth, kind));

/** Text that is not JSON, or is JSON only by a lenient reading. */
export const INVALID_JSON: readonly string[] = [
  '{"oops": ',
  '{',
  '}',
  '[',
  '"',
  '{"a":1,}',
  '[1,]',
  "{'a':1}",
  '{a:1}',
  '{"a":1}//c',
  '{"a":1}/*c*/',
  '{"a":01}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":1.}',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":-Infinity}',
  '{"a":undefined}',
  'NaN',
  'Infinity',
  'undefined',
  '{"a":"\u0001"}',
  '{"a":"\t"}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"\\uZZZZ"}',
  '\ufeff{}',
  '{}\u0000',
  '{} {}',
  '{}x',
  '[][]',
  'nul',
  'tru',
  '0x10',
  '1 2',
  '\u0000',
  ' ',
  '\n',
  '{"a"}',
  '{"a":}',
  '{:1}',
  '{"a" 1}',
  '{"a":1 "b":2}',
  `${'['.repeat(100_000)}`,
  `${'{"a":'.repeat(50_000)}1`,
];

/** Mutations of a valid body's JSON text: truncations and insertions that rarely stay JSON. */
export function brokenText(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.integer({ min: 0, max: Math.max(0, valid.length - 1) }).map((n) => valid.slice(0, n)),
    fc
      .tuple(
        fc.integer({ min: 0, max: valid.length }),
        fc.constantFrom('"', '{', '}', '[', ']', ',', ':', '\\', '\u0000', '\u0001', 'x', ' ', '\ud800'),
      )
      .map(([n, c]) => valid.slice(0, n) + c + valid.slice(n)),
    fc.constantFrom(...INVALID_JSON),
  );
}

// ---- Request bodies ---------------------------------------------------------------------------------

const SLOT = '__fuzz_raw_slot__';

/** Every path to a member of the sample body (`model`, `model.id`, `args.0`…). */
function memberPaths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, member]) => [[...prefix, key], ...memberPaths(member, [...prefix, key])]);
}

/** The sample body as JSON text with the member at `path` set to the raw JSON text `raw`. */
function withMember(sample: unknown, path: readonly string[], raw: string): string {
  const copy = { root: structuredClone(sample ?? {}) as unknown };
  const last = path[path.length - 1] as string;
  // Own members only, and defined rather than assigned: `__proto__` must become an own member, as JSON.parse makes it.
  const set = (object: object, key: string, value: unknown) =>
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  let parent: Record<string, unknown> = copy;
  let key = 'root';
  for (const next of [...path.slice(0, -1), undefined]) {
    let node = Object.hasOwn(parent, key) ? parent[key] : undefined;
    // A member that is no object becomes one; an array given a key that is no index becomes an object.
    if (typeof node !== 'object' || node === null || (Array.isArray(node) && !/^\d+$/.test(next ?? last))) {
      node = typeof node === 'object' && node !== null ? { ...node } : {};
      set(parent, key, node);
    }
    if (next === undefined) break;
    parent = node as Record<string, unknown>;
    key = next;
  }
  set(parent[key] as object, last, SLOT);
  return JSON.stringify(copy.root).replace(JSON.stringify(SLOT), () => raw);
}

/** The sample body as text with raw `"key":value` members spliced in at the top, after its own (duplicates win). */
function withExtraMembers(sample: unknown, members: string): string {
  const base = JSON.stringify(sample ?? {});
  if (members === '') return base;
  return base === '{}' ? `{${members}}` : `${base.slice(0, -1)},${members}}`;
}

/**
 * Bodies for an operation, from its valid one: a member set to any JSON value, members dropped or repeated,
 * pollution payloads, deep nesting (up to 20,000 levels), huge members, broken JSON, bytes that are not UTF-8.
 */
export function requestBodyText(target: TargetOperation): fc.Arbitrary<string | Buffer | undefined> {
  const sample = target.sample.body ?? {};
  const valid = JSON.stringify(sample);
  const paths = [...memberPaths(sample), ...(target.body?.properties ?? []).map((p) => [p])];
  const pathArb = paths.length ? fc.constantFrom(...paths) : fc.constant<string[]>(['extra']);
  // A member path, or a new key next to one.
  const anyPath = fc.oneof(
    { weight: 3, arbitrary: pathArb },
    { weight: 1, arbitrary: fc.tuple(pathArb, jsonKey).map(([p, k]) => [...p.slice(0, -1), k]) },
  );
  return fc.oneof(
    // one member set to any JSON value (wrong types, number literals, unicode, prototype keys inside)
    { weight: 6, arbitrary: fc.tuple(anyPath, jsonText).map(([path, raw]) => withMember(sample, path, raw)) },
    // the whole body any JSON value
    { weight: 2, arbitrary: jsonText },
    // members dropped
    {
      weight: 1,
      arbitrary: fc
        .subarray(Object.keys(sample))
        .map((keep) => JSON.stringify(Object.fromEntries(Object.entries(sample).filter(([k]) => keep.includes(k))))),
    },
    // repeated keys: the valid body, then the same keys again with other values
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(fc.constantFrom(...Object.keys(sample), 'x'), jsonText), { minLength: 1, maxLength: 3 })
        .map((members) => withExtraMembers(sample, members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(','))),
    },
    // prototype pollution payloads, at the top (spliced in) and inside members
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...POLLUTERS.filter((p) => p.startsWith('{')))
        .map((p) => withExtraMembers(sample, p.slice(1, -1))),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(anyPath, fc.constantFrom(...POLLUTERS)).map(([path, p]) => withMember(sample, path, p)),
    },
    // deep nesting, at the top and inside a member
    { weight: 1, arbitrary: deepJsonText },
    { weight: 1, arbitrary: fc.tuple(anyPath, deepJsonText).map(([path, deep]) => withMember(sample, path, deep)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(anyPath, fc.integer({ min: 5_000, max: 20_000 }))
        .map(([path, depth]) => withMember(sample, path, deepJson(depth, 'array'))),
    },
    // huge: a long string, a wide array, a wide object
    {
      weight: 1,
      arbitrary: fc
        .tuple(anyPath, longString(1_000, 100_000))
        .map(([path, s]) => withMember(sample, path, JSON.stringify(s))),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          anyPath,
          fc.integer({ min: 1_000, max: 10_000 }),
          fc.constantFrom('1', '"a"', '{}', '[]', 'null', '1e308'),
        )
        .map(([path, n, item]) => withMember(sample, path, `[${Array<string>(n).fill(item).join(',')}]`)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(anyPath, fc.integer({ min: 1_000, max: 5_000 }))
        .map(([path, n]) =>
          withMember(sample, path, `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`),
        ),
    },
    // not JSON at all, or not quite
    { weight: 2, arbitrary: brokenText(valid) },
    // bytes that are not UTF-8
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
        Buffer.from(`{"text":"\xff\xfe"}`, 'latin1'),
        Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
      ),
    },
    // no body, or an empty one
    { weight: 1, arbitrary: fc.constantFrom(undefined, '', ' ') },
  );
}
