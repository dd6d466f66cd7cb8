/**
 * Every flag the command line knows, written once: the parser, the help texts and `commands.ts` (which command
 * takes which) all read this table.
 */
import { DEFAULTS } from '../config/config.js';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
  /** Placeholder shown after the flag in help (`--port N`). */
  readonly value?: string;
  readonly help: string;
  /** Shown as "(default: …)"; named so that parseArgs, which reads `default`, does not apply it. */
  readonly shownDefault?: string;
}

export const OPTIONS = {
  scenario: {
    type: 'string',
    value: 'NAME|FILE',
    help: 'serve a scenario: a name in scenarios/ or a path to a .yaml file; "none" serves the spec\'s examples only',
    shownDefault: 'default',
  },
  port: {
    type: 'string',
    value: 'N',
    help: 'port to listen on; 0 picks a free one',
    shownDefault: String(DEFAULTS.port),
  },
  host: {
    type: 'string',
    value: 'ADDR',
    help: 'address to bind; use 0.0.0.0 only on purpose: beyond loopback the control plane /__sim asks for the admin token',
    shownDefault: DEFAULTS.host,
  },
  'admin-token': {
    type: 'string',
    value: 'TOKEN',
    help: 'the token /__sim asks for (X-Sim-Admin-Token: TOKEN, or /__sim/?admin_token=TOKEN in a browser), at least 16 characters',
    shownDefault: 'none on loopback; generated and printed once for any other --host',
  },
  'body-limit': {
    type: 'string',
    value: 'BYTES',
    help: 'largest request body accepted; a larger one is answered InvalidRequestError',
    shownDefault: String(DEFAULTS.bodyLimit),
  },
  'max-header-size': {
    type: 'string',
    value: 'BYTES',
    help: 'largest request line plus headers; a larger one is answered 431 SimRequestRefusedError',
    shownDefault: String(DEFAULTS.maxHeaderSize),
  },
  'max-subscribers': {
    type: 'string',
    value: 'N',
    help: 'most event-stream subscribers at once, over all partitions; one more is answered 429 SimStreamLimitError',
    shownDefault: String(DEFAULTS.maxSubscribers),
  },
  'max-partitions': {
    type: 'string',
    value: 'N',
    help: 'most partitions at once; one more is answered 429 SimPartitionLimitError',
    shownDefault: String(DEFAULTS.maxPartitions),
  },
  'request-timeout': {
    type: 'string',
    value: 'MS',
    help: 'how long a client may take to send a whole request; a slower one is answered 408 SimRequestRefusedError',
    shownDefault: String(DEFAULTS.requestTimeout),
  },
  seed: {
    type: 'string',
    value: 'S',
    help: 'seed for generated ids and data: same seed, same answers (to the instant with --virtual-time)',
    shownDefault: `"${DEFAULTS.seed}"`,
  },
  dynamic: {
    type: 'boolean',
    help: "generate bodies from the schemas instead of serving the spec's examples (where no scenario answers)",
  },
  'project-dir': {
    type: 'string',
    value: 'DIR',
    help: 'project directory the simulated service runs in',
    shownDefault: DEFAULTS.projectDir,
  },
  'real-time': {
    type: 'boolean',
    help:
      "let the clock follow wall time, starting at now (a scenario's instants count from then unless it pins start); " +
      'mock does so unless --virtual-time, so this only says it explicitly',
  },
  'virtual-time': {
    type: 'boolean',
    help:
      "keep the clock still at the scenario's start until advanced (POST /__sim/clock/advance, the inspector, a " +
      "handle's clock.advance), so the same seed gives the same answers at the same instants, as in a test",
    shownDefault: 'off, the clock follows wall time',
  },
  spec: {
    type: 'string',
    value: 'FILE',
    help: "serve this version of the interface (OpenAPI YAML or JSON, e.g. a newer real server's /doc): operations whose shapes still fit keep their simulation, the others answer from the fallback; the start-up lines say which (docs/spec-versions.md)",
    shownDefault: 'spec/session-agent.openapi.yaml',
  },
  json: { type: 'boolean', help: 'print JSON for machines instead of lines for people' },
  'sim-events': {
    type: 'boolean',
    help:
      "put the simulator's own event types, which no real server announces (a shell's timeout replaced, an OAuth " +
      'attempt settled, an instructions entry removed), on /api/event too; forms and shells are there anyway',
    shownDefault: 'only on /__sim/live and in the journal',
  },
  upstream: { type: 'string', value: 'URL', help: 'the real server (http or https URL)' },
  'upstream-timeout': {
    type: 'string',
    value: 'MS',
    help: "how long to wait for the upstream's answer, in milliseconds",
    shownDefault: String(DEFAULTS.upstreamTimeout),
  },
  recording: { type: 'string', value: 'FILE', help: 'the recording file (YAML)' },
  'redact-header': {
    type: 'string',
    multiple: true,
    value: 'NAME',
    help: 'also redact this header (repeatable; authorization, proxy-authorization, cookie, set-cookie, x-api-key and x-sim-admin-token always are)',
  },
  'redact-query': {
    type: 'string',
    multiple: true,
    value: 'NAME',
    help: 'also redact this query value (repeatable; auth_token and admin_token always are)',
  },
  'redact-pointer': {
    type: 'string',
    multiple: true,
    value: '/a/b',
    help: "also redact this JSON body field, given as a JSON pointer (repeatable; connect/key's /key always is)",
  },
  ignore: {
    type: 'string',
    multiple: true,
    value: 'NAME|/a/b',
    help: 'leave this query parameter, or body field (JSON pointer), out when matching a request to the recording (repeatable)',
  },
  exhausted: {
    type: 'string',
    value: 'last|error',
    help: "when a request's recorded answers are used up: answer the last one again, or answer a miss",
    shownDefault: DEFAULTS.replayExhausted,
  },
  coverage: {
    type: 'string',
    value: 'FILE',
    help: 'on shutdown, write what the run exercised (operations, declared errors, state transitions, rules) to FILE as JSON',
  },
  auth: {
    type: 'string',
    value: 'USER:PASS',
    help:
      'require HTTP Basic credentials on the API, as the real server with a password does: USER:PASS, or PASS alone for user opencode; ' +
      'sent as "Authorization: Basic base64(USER:PASS)" or ?auth_token=base64(USER:PASS), else 401 UnauthorizedError; ' +
      'the control plane /__sim stays open, so keep it on loopback',
    shownDefault: 'off',
  },
  watch: {
    type: 'boolean',
    help: 'reload the scenario file when it changes: every partition serving it restarts from the new version; a broken edit is logged with file:line:col and the last good version keeps serving',
  },
  out: {
    type: 'string',
    value: 'FILE',
    help: 'write the scenario to FILE (a temporary file, then renamed) instead of standard output',
  },
  name: {
    type: 'string',
    value: 'NAME',
    help: "the scenario's name",
    shownDefault: "the --out file's name, else the recording's",
  },
  tolerance: {
    type: 'string',
    value: 'MS',
    help: 'how far apart two instants (time.created, timestamp…) may be and still count as the same, in milliseconds',
    shownDefault: '1000',
  },
  match: {
    type: 'string',
    value: 'order|session|prompt',
    help: "how a new prompt picks its scripted turn, over the scenario's scriptedModel.match: the next in the list, the runtime session's own scenario session, or the turn whose prompt it contains",
    shownDefault: "the scenario's, else order",
  },
  pace: {
    type: 'string',
    value: 'FACTOR',
    help: "multiplies the script's pauses (time to first token, between deltas): 1 plays them as written, 0 sends each answer at once",
    shownDefault: '1',
  },
  'print-config': {
    type: 'boolean',
    help: 'print the opencode.json that wires a real runtime to the model, then exit (with --port, its URL names that port)',
  },
  'api-key': {
    type: 'string',
    value: 'KEY',
    help: 'answer only calls with Authorization: Bearer KEY (default: any key)',
  },
  opencode: {
    type: 'string',
    value: 'PATH',
    help: 'the opencode binary to run',
    shownDefault: "the installed opencode-<platform>-<arch> package's",
  },
  dir: {
    type: 'string',
    value: 'DIR',
    help: 'the workspace the runtime works in (a git repository is made there if it is none; nothing is written into it otherwise)',
    shownDefault: 'a throwaway git repository, removed on stop',
  },
  'model-recording': {
    type: 'string',
    value: 'FILE',
    help: "keep the model's answers to every turn's calls in FILE (JSON, rewritten after each), to replay them exactly with --model-replay",
  },
  'model-replay': {
    type: 'string',
    value: 'FILE',
    help: 'answer the n-th turn the runtime plays with the n-th turn of a --model-recording, as recorded; the scenario answers the rest',
  },
  quiet: {
    type: 'boolean',
    short: 'q',
    help: 'print no line per exchange (the start-up lines still show)',
  },
  log: {
    type: 'string',
    value: 'lines|json',
    help:
      'how each exchange is printed: lines for people (coloured on a terminal; NO_COLOR, FORCE_COLOR respected), ' +
      'or json, one object per line on standard output, with the start-up lines moved to standard error',
    shownDefault: 'lines',
  },
  verbose: {
    type: 'boolean',
    help: "add each exchange's request and answer headers under its line, secrets masked",
  },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
  version: { type: 'boolean', short: 'v', help: 'print the version' },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

/** Every command takes these: asking for help or the version never depends on where you are. */
export const GLOBAL_OPTIONS: readonly OptionName[] = ['help', 'version'];

export function isOption(name: string): name is OptionName {
  return Object.hasOwn(OPTIONS, name);
}

/** `--port N`, `--dynamic`, `-h, --help`. */
export function flagLabel(name: OptionName): string {
  const spec: OptionSpec = OPTIONS[name];
  return `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.value ? ` ${spec.value}` : ''}`;
}
