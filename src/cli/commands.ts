/**
 * The commands of the command line, written once with the flags each takes (`options.ts` has the flags): the
 * parser, the help texts and the "which command takes this flag" answers all read this table, so help cannot
 * promise a flag the parser refuses.
 */
import { GLOBAL_OPTIONS, type OptionName } from './options.js';
import { RUNTIME_COMMANDS } from './runtime-commands.js';

export interface CommandOption {
  readonly name: OptionName;
  /** Replaces the option's general description where this command gives it a particular meaning. */
  readonly help?: string;
  readonly required?: boolean;
}

export interface CommandSpec {
  readonly summary: string;
  /** What follows the command name in the usage line. */
  readonly usage: string;
  readonly description: readonly string[];
  readonly options: readonly CommandOption[];
  readonly arguments: { readonly min: number; readonly max: number; readonly missing?: string };
  /** Each a comment saying what it does, then the command line. */
  readonly examples: ReadonlyArray<readonly [string, string]>;
}

/** How much a client may send and how slowly: the limits that keep a misbehaving one from exhausting the simulator. */
const LIMITS: readonly CommandOption[] = [
  { name: 'admin-token' },
  { name: 'body-limit' },
  { name: 'max-header-size' },
  { name: 'request-timeout' },
  { name: 'max-subscribers' },
  { name: 'max-partitions' },
];
const LISTEN: readonly CommandOption[] = [{ name: 'port' }, { name: 'host' }, { name: 'auth' }, ...LIMITS];
/** Where requests go on to a real server, what happens to the credentials there matters too. */
const FORWARDING_LISTEN: readonly CommandOption[] = [
  { name: 'port' },
  { name: 'host' },
  ...LIMITS,
  {
    name: 'auth',
    help:
      'require HTTP Basic credentials (USER:PASS, or PASS alone for user opencode) before anything is forwarded, as the real server ' +
      'with a password does; the request goes on as sent, Authorization header and auth_token included (the upstream may check its own), ' +
      'and recordings redact both. The control plane /__sim stays open, so keep it on loopback',
  },
];
const REDACT: readonly CommandOption[] = [
  { name: 'redact-header' },
  { name: 'redact-query' },
  { name: 'redact-pointer' },
];
/** What a serving command prints per exchange (`src/control/exchange-printer.ts`). */
const OUTPUT: readonly CommandOption[] = [{ name: 'quiet' }, { name: 'log' }, { name: 'verbose' }];
const REAL_SERVER = 'http://127.0.0.1:4096';

export const COMMANDS = {
  mock: {
    summary: "serve the interface from a scenario, with the spec's examples behind it",
    usage: 'mock [options]',
    description: [
      "Serves every operation of the interface: the scenario's world where it models the operation, the spec's",
      'examples (or generated bodies, with --dynamic) everywhere else. With no command, session-agent-sim runs mock.',
      "Per request, a Prefer header asks for the spec's answer: code=404 | example=<name> | dynamic=true.",
      'The clock follows wall time, so agent turns play and the world moves by itself; --virtual-time keeps it',
      'still until advanced, for runs that must repeat to the millisecond.',
    ],
    options: [
      { name: 'scenario' },
      { name: 'spec' },
      ...LISTEN,
      { name: 'seed' },
      { name: 'dynamic' },
      { name: 'project-dir' },
      { name: 'real-time' },
      { name: 'virtual-time' },
      { name: 'sim-events' },
      { name: 'watch' },
      { name: 'coverage' },
      ...OUTPUT,
      // What the inspector and the control API show of a request is masked by the same rules as a recording.
      ...REDACT,
    ],
    arguments: { min: 0, max: 0 },
    examples: [
      ['the default scenario on http://127.0.0.1:4010', 'session-agent-sim mock'],
      ['your own scenario, reloaded as you edit it', 'session-agent-sim mock --scenario ./my-scenario.yaml --watch'],
      [
        'ask for credentials as the real server with OPENCODE_SERVER_PASSWORD=secret does (user opencode)',
        'session-agent-sim mock --auth secret',
      ],
      [
        'a clock that stands still until advanced, as a test wants: same seed, same answers, same instants',
        'session-agent-sim mock --scenario forms-settling --virtual-time',
      ],
      [
        'generated bodies for every operation, on a free port',
        'session-agent-sim mock --scenario none --dynamic --seed demo --port 0',
      ],
      ['one JSON object per exchange, for a program to read', 'session-agent-sim mock --log json | jq .status'],
    ],
  },
  proxy: {
    summary: 'forward every request to the real server, checking each answer against the spec',
    usage: 'proxy --upstream URL [options]',
    description: [
      'Forwards every request to --upstream and its answer back byte for byte; what departs from the spec is',
      'counted in the x-sim-violations header and listed in GET /__sim/journal.',
    ],
    options: [
      { name: 'upstream', required: true, help: 'the real server to forward to (http or https URL)' },
      { name: 'upstream-timeout' },
      { name: 'spec', help: 'check answers against this version of the interface (OpenAPI YAML or JSON)' },
      ...FORWARDING_LISTEN,
      { name: 'coverage' },
      ...OUTPUT,
    ],
    arguments: { min: 0, max: 0 },
    examples: [
      ['listen on 127.0.0.1:4010, forward to the real server', `session-agent-sim proxy --upstream ${REAL_SERVER}`],
      [
        'another port, and give up on a slow answer after 5 s',
        `session-agent-sim proxy --upstream ${REAL_SERVER} --port 4011 --upstream-timeout 5000`,
      ],
    ],
  },
  record: {
    summary: 'like proxy, and write every exchange to a recording (secrets redacted)',
    usage: 'record --upstream URL --recording FILE [options]',
    description: [
      'Forwards like proxy and appends each exchange to --recording as it completes, so an interrupted run',
      'still leaves a valid file. Secrets are redacted before anything touches disk.',
    ],
    options: [
      { name: 'upstream', required: true, help: 'the real server to record (http or https URL)' },
      { name: 'recording', required: true, help: 'the recording to write (YAML), e.g. recordings/flow.yaml' },
      { name: 'upstream-timeout' },
      { name: 'spec', help: 'check answers against this version of the interface (OpenAPI YAML or JSON)' },
      ...REDACT,
      ...FORWARDING_LISTEN,
      { name: 'coverage' },
      ...OUTPUT,
    ],
    arguments: { min: 0, max: 0 },
    examples: [
      [
        'use your app against http://127.0.0.1:4010 as usual; every exchange is written down',
        `session-agent-sim record --upstream ${REAL_SERVER} --recording recordings/login-flow.yaml`,
      ],
      [
        'also keep a custom token header and a password field out of the file',
        `session-agent-sim record --upstream ${REAL_SERVER} --recording recordings/signup.yaml --redact-header x-session-token --redact-pointer /password`,
      ],
    ],
  },
  replay: {
    summary: 'answer from a recording (a miss is an error); with --upstream, record what is missing',
    usage: 'replay --recording FILE [options]',
    description: [
      'Answers each request with its recorded answer, identical requests in recorded order. A request the',
      'recording lacks is answered SimRecordingNotFoundError (404) naming the closest recorded one, unless',
      '--upstream is given: then it is forwarded and added to the recording.',
    ],
    options: [
      { name: 'recording', required: true, help: 'the recording to answer from (YAML)' },
      { name: 'upstream', help: 'forward what the recording lacks to this server, and record it (http or https URL)' },
      { name: 'upstream-timeout' },
      { name: 'spec', help: 'route and check against this version of the interface (OpenAPI YAML or JSON)' },
      { name: 'ignore' },
      { name: 'exhausted' },
      ...REDACT,
      ...FORWARDING_LISTEN,
      { name: 'coverage' },
      ...OUTPUT,
    ],
    arguments: { min: 0, max: 0 },
    examples: [
      [
        'offline: the same traffic, answered from the file',
        'session-agent-sim replay --recording recordings/login-flow.yaml',
      ],
      [
        'replay what is recorded, record what is missing',
        `session-agent-sim replay --recording recordings/login-flow.yaml --upstream ${REAL_SERVER}`,
      ],
      [
        'match requests whatever their messageID, and miss once recorded answers run out',
        'session-agent-sim replay --recording recordings/login-flow.yaml --ignore /messageID --exhausted error',
      ],
    ],
  },
  ...RUNTIME_COMMANDS,
  validate: {
    summary: 'check scenarios against the format and the spec (default: all of scenarios/)',
    usage: 'validate [NAME|FILE…]',
    description: [
      'Checks each scenario against the format and every message and form it would serve against the spec;',
      'each problem names file:line:col. A NAME is a scenario in scenarios/, as --scenario takes it.',
      'Exit 1 if any file has a problem.',
    ],
    options: [],
    arguments: { min: 0, max: Infinity },
    examples: [
      ['every scenario in scenarios/', 'session-agent-sim validate'],
      ['one shipped scenario, by name', 'session-agent-sim validate forms-settling'],
      ['your own file', 'session-agent-sim validate ./my-scenario.yaml'],
    ],
  },
  drift: {
    summary: 'check every answer in recordings against the spec, per operation (exit 1 if any drifts)',
    usage: 'drift FILE…',
    description: [
      'Lists, per operation, how the recorded answers of the real server depart from the spec. Exit 1 if any does.',
    ],
    options: [],
    arguments: { min: 1, max: Infinity, missing: 'one or more recording files' },
    examples: [
      ['one recording', 'session-agent-sim drift recordings/login-flow.yaml'],
      ['all of them', 'session-agent-sim drift recordings/*.yaml'],
    ],
  },
  'scenario-from': {
    summary: 'turn a recording into an editable scenario: its world, lifecycles and (for the rest) rules',
    usage: 'scenario-from RECORDING [--out FILE] [--name NAME]',
    description: [
      'Reads what the recorded traffic shows existing (sessions and their messages, integrations, forms, shells,',
      'attempts, PTYs, references, plugins, files, the model, the project) as initial state, and what it shows',
      'changing as lifecycles (an attempt polled pending, pending, complete settles on poll 3; a form that',
      'appeared between two listings appears then). The result is played against the recording; an answer no',
      'lifecycle explains becomes a rule answering as recorded. Every part names the interactions it came from;',
      'interactions outside the spec are listed at the top. Secrets stay as redacted in the recording.',
    ],
    options: [{ name: 'out' }, { name: 'name' }],
    arguments: { min: 1, max: 1, missing: 'a recording file' },
    examples: [
      [
        'a scenario from a recording, to edit and serve',
        'session-agent-sim scenario-from recordings/login-flow.yaml --out scenarios/login-flow.yaml',
      ],
      ['then serve it', 'session-agent-sim mock --scenario scenarios/login-flow.yaml'],
    ],
  },
  'scenario-diff': {
    summary: 'play a recording against a scenario and show where its answers depart (exit 1 if any does)',
    usage: 'scenario-diff SCENARIO RECORDING [--tolerance MS]',
    description: [
      "Plays the recording's in-spec requests against the scenario in this process, the virtual clock stepped to",
      'the instant each recorded answer was complete, and reports per interaction the first difference: status, _tag, or the first',
      "differing field. Ids minted while recording are paired with the scenario's (and translated in later",
      'requests), instants count within --tolerance, process ids as any integer. Requests and recorded answers',
      'outside the spec are skipped with the reason; event streams are compared by event type, as notes.',
    ],
    options: [{ name: 'tolerance' }],
    arguments: { min: 2, max: 2, missing: 'a scenario (name or file) and a recording file' },
    examples: [
      [
        'check a hand-written scenario against what the real server did',
        'session-agent-sim scenario-diff scenarios/login-flow.yaml recordings/login-flow.yaml',
      ],
      ['a shipped scenario, by name', 'session-agent-sim scenario-diff forms-settling recordings/forms.yaml'],
    ],
  },
  'spec-diff': {
    summary: 'compare two versions of the interface: operations added, removed, moved, shapes changed (exit 1 if any)',
    usage: 'spec-diff OLD NEW [--json]',
    description: [
      'Compares two OpenAPI documents (YAML or JSON) by operationId: operations added, removed, moved (another',
      'method or path), and shapes changed (parameters, request body, response statuses and schemas, $refs',
      'followed, documentation ignored), each change at a JSON pointer into NEW. Exit 0 when identical, 1 when',
      'anything differs, 2 when a document cannot be read.',
    ],
    options: [{ name: 'json' }],
    arguments: { min: 2, max: 2, missing: 'two OpenAPI documents, the older then the newer' },
    examples: [
      [
        "the simulator's spec against the real server's /doc",
        'session-agent-sim spec-diff spec/session-agent.openapi.yaml spec/real-server/opencode-1.18.33.openapi.json',
      ],
      ['for a script', 'session-agent-sim spec-diff old.yaml new.json --json'],
    ],
  },
  'har-export': {
    summary: 'print a recording as HAR 1.2 (for devtools and HAR viewers)',
    usage: 'har-export FILE',
    description: ['Prints the recording as a HAR 1.2 document on stdout.'],
    options: [],
    arguments: { min: 1, max: 1, missing: 'a recording file' },
    examples: [
      [
        "a HAR to open in the browser's devtools",
        'session-agent-sim har-export recordings/login-flow.yaml > login-flow.har',
      ],
      ['read it page by page', 'session-agent-sim har-export recordings/login-flow.yaml | less'],
    ],
  },
  'har-import': {
    summary: 'turn a HAR (as devtools save it) into a recording, redacting secrets',
    usage: 'har-import HAR --recording FILE [options]',
    description: ['Routes each HAR entry through the spec and writes it as a recording, redacted like a live one.'],
    options: [
      { name: 'recording', required: true, help: 'the recording to write (YAML); an existing file is replaced' },
      ...REDACT,
    ],
    arguments: { min: 1, max: 1, missing: 'a HAR file' },
    examples: [
      [
        'a HAR saved from the Network tab, as a recording to replay',
        'session-agent-sim har-import login-flow.har --recording recordings/login-flow.yaml',
      ],
      [
        'also redact a custom token header',
        'session-agent-sim har-import login-flow.har --recording recordings/login-flow.yaml --redact-header x-session-token',
      ],
    ],
  },
  help: {
    summary: "show the commands, or one command's options and examples",
    usage: 'help [COMMAND]',
    description: ['Same as session-agent-sim --help, or session-agent-sim COMMAND --help.'],
    options: [],
    arguments: { min: 0, max: 1 },
    examples: [
      ['the commands', 'session-agent-sim help'],
      ['what record takes', 'session-agent-sim help record'],
    ],
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

export function isCommand(word: string): word is CommandName {
  return Object.hasOwn(COMMANDS, word);
}

/** The options a command accepts, its own then the global ones. */
export function optionsOf(command: CommandName): OptionName[] {
  return [...(COMMANDS[command] as CommandSpec).options.map((o) => o.name), ...GLOBAL_OPTIONS];
}

/** The commands that take a flag, for "--upstream is an option of proxy, record, replay". */
export function commandsTaking(option: OptionName): CommandName[] {
  return COMMAND_NAMES.filter((command) => optionsOf(command).includes(option));
}
