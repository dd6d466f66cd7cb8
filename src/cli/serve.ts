/**
 * The serving commands (mock, proxy, record, replay): flags to SimOptions, start the server, say where it
 * listens, and shut down cleanly on a signal.
 */
import { type SimOptions } from '../config/config.js';
import { SimScenarioError, SimScenarioNotFoundError } from '../errors/errors.js';
import { readCredentials } from '../config/credentials.js';
import { startServer } from '../hosts/server.js';
import { withoutCredentials } from '../recordings/redact.js';
import { redaction, type Values } from './parse.js';
import { isOption } from './options.js';
import { helpHint } from './help.js';
import { scenarioArgument } from './scenario-names.js';
import { didYouMean } from '../text/closest.js';
import { UsageError } from './usage-error.js';
import { versionLines } from '../openapi/spec-version.js';
import type { Clock } from '../state/clock.js';
import { SimConfigError } from '../errors/sim-errors.js';

/** How long answers in flight get to finish after SIGTERM or SIGINT, before their connections are cut. */
const SHUTDOWN_GRACE_MS = 5000;
/** How long closing may take past the grace before the process exits regardless. */
const HARD_EXIT_MS = 2000;

export type ServeCommand = 'mock' | 'proxy' | 'record' | 'replay';

/** What each numeric flag counts, for the sentence that refuses a value. */
const UNITS = {
  'body-limit': 'a whole number of bytes (10485760 for 10 MiB)',
  'max-header-size': 'a whole number of bytes (65536 for 64 KiB)',
  'request-timeout': 'a whole number of milliseconds (30000 for 30 s)',
  'upstream-timeout': 'a whole number of milliseconds (30000 for 30 s)',
  'max-subscribers': 'a positive whole number',
  'max-partitions': 'a positive whole number',
} as const;

export function simOptions(command: ServeCommand, values: Values): SimOptions {
  if (values.port !== undefined && !/^\d+$/.test(values.port)) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${values.port}".`, command);
  }
  for (const name of [
    'body-limit',
    'max-header-size',
    'request-timeout',
    'upstream-timeout',
    'max-subscribers',
    'max-partitions',
  ] as const) {
    const value = values[name];
    if (value !== undefined && !/^[1-9]\d*$/.test(value))
      throw new UsageError(`--${name} must be ${UNITS[name]}, got "${value}".`, command);
  }
  if (values.auth !== undefined) {
    const credentials = readCredentials(values.auth);
    if ('problem' in credentials)
      throw new UsageError(
        `--auth ${credentials.problem}: give USER:PASS, or PASS alone for user opencode (--auth alice:secret, --auth secret).`,
        command,
      );
  }
  const exhausted = values.exhausted;
  if (exhausted !== undefined && exhausted !== 'last' && exhausted !== 'error') {
    throw new UsageError(
      `--exhausted must be "last" or "error", got "${exhausted}".${didYouMean(exhausted, ['last', 'error'])}`,
      command,
    );
  }
  const upstream = values.upstream;
  if (upstream !== undefined && !/^https?:\/\/[^/]/.test(upstream)) {
    const meant = /^[\w.-]+(:\d+)?(\/|$)/.test(upstream) ? ` Did you mean http://${upstream}?` : '';
    throw new UsageError(`--upstream must be an http or https URL, got "${upstream}".${meant}`, command);
  }
  if (values['project-dir'] !== undefined && !values['project-dir'].startsWith('/')) {
    throw new UsageError(
      `--project-dir must be an absolute path (starting with /), got "${values['project-dir']}".`,
      command,
    );
  }
  if (values['real-time'] && values['virtual-time'])
    throw new UsageError(
      '--real-time and --virtual-time contradict each other: give one (the clock follows wall time unless --virtual-time).',
      command,
    );
  const logExchanges = exchangeLog(values, command);
  // A misspelt name is caught here, with a suggestion; the server would only list what is available.
  if (values.scenario !== undefined && values.scenario !== 'none') scenarioArgument(values.scenario, command);
  return {
    port: values.port === undefined ? undefined : Number(values.port),
    host: values.host,
    seed: values.seed,
    dynamic: values.dynamic,
    projectDir: values['project-dir'],
    // A person at `npm start` has nobody to advance the clock: mock follows the wall clock unless told not to.
    // The other commands serve no world (the upstream or the recording answers) and keep the library's default.
    realTime: command === 'mock' ? values['virtual-time'] !== true : undefined,
    spec: values.spec,
    simEvents: values['sim-events'],
    // The CLI serves the default scenario unless told otherwise; the library default is the examples alone.
    scenario: command !== 'mock' || values.scenario === 'none' ? undefined : (values.scenario ?? 'default'),
    upstream: command === 'mock' ? undefined : values.upstream,
    record: command === 'record' ? values.recording : undefined,
    replay: command === 'replay' ? values.recording : undefined,
    redact: redaction(values),
    ignore: values.ignore,
    replayExhausted: values.exhausted as 'last' | 'error' | undefined,
    upstreamTimeout: values['upstream-timeout'] === undefined ? undefined : Number(values['upstream-timeout']),
    coverage: values.coverage,
    auth: values.auth,
    watch: command === 'mock' ? values.watch : undefined,
    adminToken: values['admin-token'],
    bodyLimit: numberOrUndefined(values['body-limit']),
    maxHeaderSize: numberOrUndefined(values['max-header-size']),
    requestTimeout: numberOrUndefined(values['request-timeout']),
    maxSubscribers: numberOrUndefined(values['max-subscribers']),
    maxPartitions: numberOrUndefined(values['max-partitions']),
    logExchanges,
  };
}

/** `--quiet`, `--log lines|json` and `--verbose` as the library's `logExchanges`; the CLI prints lines by default. */
function exchangeLog(values: Values, command: ServeCommand): SimOptions['logExchanges'] {
  const format = values.log;
  if (format !== undefined && format !== 'lines' && format !== 'json')
    throw new UsageError(
      `--log must be "lines" or "json", got "${format}".${didYouMean(format, ['lines', 'json'])}`,
      command,
    );
  if (values.quiet) {
    const also = values.log !== undefined ? '--log' : values.verbose ? '--verbose' : undefined;
    if (also) throw new UsageError(`--quiet prints no exchanges, so ${also} has nothing to change: give one.`, command);
    return undefined;
  }
  return { format: format ?? 'lines', headers: values.verbose === true };
}

/** A library option's name at the start of a SimConfigError (`maxPartitions must be …`) as the flag a CLI user typed. */
function asFlags(message: string): string {
  return message.replace(/^([a-z]+[A-Za-z]*)\b/, (name) => (isOption(flagName(name)) ? `--${flagName(name)}` : name));
}

function flagName(option: string): string {
  const renamed: Record<string, string> = { replayExhausted: 'exhausted', projectDir: 'project-dir' };
  return renamed[option] ?? option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Which clock runs and how to have the other: a person who sees nothing move should learn why from here. */
function clockLine(clock: Clock): string {
  return clock.realTime
    ? 'clock: follows the wall clock, so turns play and the world moves by itself; --virtual-time keeps it still until advanced'
    : `clock: virtual, still at ${new Date(clock.now()).toISOString()} until advanced (POST /__sim/clock/advance, or the inspector's clock); ` +
        'without --virtual-time it follows the wall clock';
}

function numberOrUndefined(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/** Resolves -1 while the server runs (the process stays up until a signal), else the exit code. */
export async function serve(command: ServeCommand, options: SimOptions, implied = false): Promise<number> {
  // With --log json standard output is for the exchanges alone, one object a line: what people read goes aside.
  const json = typeof options.logExchanges === 'object' && options.logExchanges.format === 'json';
  const say = (text: string) => (json ? process.stderr : process.stdout).write(text);
  try {
    const sim = await startServer(options);
    const { config, spec } = sim.app.sim;
    const serving = sim.app.sim.partitions.default.engine.scenario;
    const source = serving ? `scenario ${serving.name}, ` : '';
    // Who may come in, never with what password: this line lands in terminals and CI logs.
    const auth = config.auth ? `; HTTP Basic auth required (user ${config.auth.user})` : '';
    say(
      command !== 'mock'
        ? `session-agent-sim ${command}: ${sim.url} → ${[config.replay && `recording ${config.replay}`, config.upstream && withoutCredentials(config.upstream)].filter(Boolean).join(', then ')}` +
            `${config.record ? `, recording into ${config.record}` : ''}; answers checked against ${spec.operations.length} operations${auth}\n`
        : `session-agent-sim mock: ${spec.operations.length} operations on ${sim.url} ` +
            `(${source}${config.dynamic ? 'dynamic' : 'examples'} fallback, seed "${config.seed}")${auth}\n`,
    );
    // Serving another version of the interface: what changed, and what the world no longer answers.
    const version = sim.app.sim.specVersion;
    if (version && command === 'mock') process.stdout.write(`${versionLines(version).join('\n')}\n`);
    // Someone who typed no command should learn what ran and where the others are.
    if (implied) say('(no command given, so mock; session-agent-sim --help lists the commands)\n');
    if (command === 'mock') say(`${clockLine(sim.app.sim.partitions.default.engine.clock)}\n`);
    if (config.adminToken !== undefined) {
      // Printed once, only when generated: a token the user chose is theirs to keep out of their terminal.
      const told =
        options.adminToken === undefined
          ? `admin token ${config.adminToken} (generated; choose one with --admin-token)`
          : 'the admin token given with --admin-token';
      say(
        `control plane ${sim.url}/__sim needs ${told}: send X-Sim-Admin-Token, or open ${sim.url}/__sim/?admin_token=TOKEN\n`,
      );
    }
    let stopping = false;
    const stop = () => {
      // A second signal means now: whatever is still in flight is cut (its recording is already safe or never began).
      if (stopping) process.exit(1);
      stopping = true;
      // Whatever closing still waits for after the grace (a clock advance playing thousands of turns in slices),
      // the signal stops the process.
      setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + HARD_EXIT_MS).unref();
      void sim.close({ graceMs: SHUTDOWN_GRACE_MS }).then(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    return -1; // keep running
  } catch (error) {
    if (error instanceof SimScenarioError) {
      process.stderr.write(
        `${error.problems.join('\n')}\nsession-agent-sim validate FILE lists the same problems without starting a server.\n`,
      );
      return 2;
    }
    if (error instanceof SimConfigError) {
      process.stderr.write(`${asFlags(error.message)}\n${helpHint(command)}\n`);
      return 2;
    }
    if (error instanceof SimScenarioNotFoundError) {
      process.stderr.write(
        `${error.message.replace(/[^.?]$/, '$&.')} ${String(error.fields.hint)}\n${helpHint(command)}\n`,
      );
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      process.stderr.write(`session-agent-sim: cannot listen: ${(error as Error).message} (try --port)\n`);
      return 1;
    }
    throw error;
  }
}
