/**
 * `session-agent-sim model`: a scenario's turns as an OpenAI-compatible model on loopback, or (with
 * --print-config) the opencode.json that wires a real runtime to it. `session-agent-sim real`: the real
 * runtime itself, offline, wired to that model.
 */
import { readCredentials } from '../config/credentials.js';
import { SimScenarioError, SimScenarioNotFoundError } from '../errors/errors.js';
import type { TurnMatch } from '../kinds/session/types.js';
import { RealRuntimeError, startRealRuntime } from '../real-runtime/real-runtime.js';
import { ModelTapeError } from '../scripted-model/model-tape.js';
import { startScriptedModel } from '../scripted-model/scripted-model.js';
import { opencodeConfig } from '../scripted-model/wiring.js';
import { didYouMean } from '../text/closest.js';
import type { CommandName } from './commands.js';
import type { Values } from './parse.js';
import { scenarioArgument } from './scenario-names.js';
import { UsageError } from './usage-error.js';

/** The port `model` listens on unless told: beside the simulator's 4010. */
export const MODEL_PORT = 4011;
/** The real runtime's own default port. */
const REAL_PORT = 4096;
const MATCHES: readonly TurnMatch[] = ['order', 'session', 'prompt'];

interface Flags {
  record?: string;
  replay?: string;
  port: number;
  host: string;
  match?: TurnMatch;
  pace: number;
  scenario: string;
}

function readFlags(values: Values, command: CommandName, defaultPort: number): Flags {
  const port = values.port === undefined ? defaultPort : Number(values.port);
  if (values.port !== undefined && (!/^\d+$/.test(values.port) || port > 65535))
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${values.port}".`, command);
  const match = values.match;
  if (match !== undefined && !(MATCHES as readonly string[]).includes(match))
    throw new UsageError(
      `--match must be order, session or prompt, got "${match}".${didYouMean(match, MATCHES)}`,
      command,
    );
  const pace = values.pace === undefined ? 1 : Number(values.pace);
  if (values.pace !== undefined && (!/^\d+(\.\d+)?$/.test(values.pace) || !Number.isFinite(pace)))
    throw new UsageError(
      `--pace must be a number ≥ 0 (1 as scripted, 0 at once, 0.5 twice as fast), got "${values.pace}".`,
      command,
    );
  return {
    record: values['model-recording'],
    replay: values['model-replay'],
    port,
    host: values.host ?? '127.0.0.1',
    match: match as TurnMatch | undefined,
    pace,
    scenario: values.scenario === undefined ? 'default' : scenarioArgument(values.scenario, command),
  };
}

/** A scenario that does not load, or a port in use: said on stderr, exit 1. Anything else is a bug. */
function failedStart(error: unknown, port: number): number {
  if (
    error instanceof SimScenarioError ||
    error instanceof SimScenarioNotFoundError ||
    error instanceof RealRuntimeError ||
    error instanceof ModelTapeError
  ) {
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    process.stderr.write(`Port ${port} is in use: pick another with --port, or --port 0 for a free one.\n`);
    return 1;
  }
  throw error;
}

/** Stops what was started on SIGINT or SIGTERM; a second signal exits at once. */
function stopOnSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = () => {
    if (stopping) process.exit(1);
    stopping = true;
    void stop().then(() => process.exit(0));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

export async function modelCommand(values: Values): Promise<number> {
  const apiKey = values['api-key'];
  if (values['print-config']) {
    const { port, host } = readFlags({ ...values, scenario: undefined }, 'model', MODEL_PORT);
    const shown = host.includes(':') ? `[${host}]` : host;
    const identity = { provider: 'sim', model: 'scripted-1' };
    process.stdout.write(
      `${JSON.stringify(opencodeConfig(`http://${shown}:${port}/v1`, identity, apiKey), null, 2)}\n`,
    );
    return 0;
  }
  const flags = readFlags(values, 'model', MODEL_PORT);
  let model;
  try {
    model = await startScriptedModel({ ...flags, apiKey });
  } catch (error) {
    return failedStart(error, flags.port);
  }
  process.stdout.write(
    `scripted model (${values.scenario ?? 'default'}) on ${model.url}\n` +
      `wire a real runtime to it with: session-agent-sim model --print-config${values.port === undefined ? '' : ` --port ${model.port}`} > opencode.json\n`,
  );
  stopOnSignal(() => model.close());
  return -1;
}

export async function realCommand(values: Values): Promise<number> {
  const flags = readFlags(values, 'real', REAL_PORT);
  if (values.auth !== undefined) {
    const credentials = readCredentials(values.auth);
    if ('problem' in credentials)
      throw new UsageError(
        `--auth ${credentials.problem}: give USER:PASS, or PASS alone for user opencode (--auth alice:secret, --auth secret).`,
        'real',
      );
  }
  let runtime;
  try {
    runtime = await startRealRuntime({ ...flags, opencode: values.opencode, dir: values.dir, auth: values.auth });
  } catch (error) {
    return failedStart(error, flags.port);
  }
  process.stdout.write(
    `real runtime (opencode serve) on ${runtime.url}, its model the turns of ${values.scenario ?? 'default'} (${runtime.model.url})\n` +
      `workspace ${runtime.directory}; point your app at ${runtime.url} as at mock. Ctrl-C stops both.\n`,
  );
  stopOnSignal(() => runtime.stop());
  return -1;
}
