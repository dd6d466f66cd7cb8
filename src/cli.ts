/**
 * The `session-agent-sim` command: parses flags, starts the simulator, shuts down cleanly on a signal.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { ConfigError, DEFAULTS, type SimOptions } from './config.js';
import { SimScenarioNotFoundError } from './errors.js';
import { loadSpec } from './spec/openapi.js';
import { driftReport, formatDrift } from './recordings/drift.js';
import { headerDocument, interactionDocument, parseRecording } from './recordings/format.js';
import { fromHar, toHar, type Har } from './recordings/har.js';
import { mergeRedaction } from './recordings/redact.js';
import { ScenarioError } from './scenarios/definition.js';
import { loadScenarioFile } from './scenarios/load-scenario.js';
import { SCENARIOS_DIR } from './scenarios/scenario-host.js';
import { startServer } from './http/server.js';

const USAGE = `Usage: session-agent-sim <command> [options]

Commands:
  mock              Serve the interface: the default scenario, another with --scenario, examples behind it
  proxy             Forward every request to --upstream URL, checking each answer against the spec
  record            Like proxy, and write every exchange to --recording FILE (secrets redacted)
  replay            Answer from --recording FILE (a miss is an error); with --upstream, record what is missing
  validate [PATH…]  Check scenario files (default: every scenarios/*.yaml) against the format and the spec
  drift FILE…       Check every answer in recordings against the spec, per operation (exit 1 if any drifts)
  har-export FILE   Print a recording as HAR 1.2 (for devtools and HAR viewers)
  har-import HAR --recording FILE   Turn a HAR (as devtools save it) into a recording, redacting secrets

Options for mock:
  --scenario S    Serve a scenario: a name in scenarios/ or a path to a .yaml file
                  (default: "default"; "none" serves the spec's examples only)
  --port N        Port to listen on (default ${DEFAULTS.port}; 0 picks a free one)
  --host ADDR     Address to bind (default ${DEFAULTS.host}; use 0.0.0.0 only on purpose)
  --seed S        Seed for generated ids and data (default "${DEFAULTS.seed}")
  --dynamic       Generate bodies from the schemas instead of serving the spec's examples
  --project-dir D Project directory the simulated service runs in (default ${DEFAULTS.projectDir})
  --real-time     Let the clock follow wall time (default: virtual, moves only when advanced)
  -h, --help      Show this help
  -v, --version   Show the version

Options for proxy, record, replay:
  --upstream URL          the real server (required for proxy and record)
  --upstream-timeout MS   how long to wait for it (default 30000)
  --recording FILE        the recording to write (record) or read (replay), e.g. recordings/flow.yaml
  --redact-header NAME    also redact this header (repeatable; authorization, cookies are always redacted)
  --redact-query NAME     also redact this query value (repeatable; auth_token always is)
  --redact-pointer /a/b   also redact this JSON body field (repeatable; connect/key's /key always is)
  --ignore NAME|/a/b      leave a query parameter or body field out when matching a replayed request
  --exhausted last|error  when a request's recorded answers are used up: repeat the last (default) or miss

Per request: Prefer: code=404 | example=<name> | dynamic=true`;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        dynamic: { type: 'boolean' },
        'project-dir': { type: 'string' },
        'real-time': { type: 'boolean' },
        scenario: { type: 'string' },
        upstream: { type: 'string' },
        'upstream-timeout': { type: 'string' },
        recording: { type: 'string' },
        'redact-header': { type: 'string', multiple: true },
        'redact-query': { type: 'string', multiple: true },
        'redact-pointer': { type: 'string', multiple: true },
        ignore: { type: 'string', multiple: true },
        exhausted: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const command = positionals[0] ?? 'mock';
  const redact = { headers: values['redact-header'], query: values['redact-query'], pointers: values['redact-pointer'] };
  if (command === 'validate') return validateScenarios(positionals.slice(1));
  if (command === 'drift') return reportDrift(positionals.slice(1));
  if (command === 'har-export') return exportHar(positionals[1]);
  if (command === 'har-import') {
    return importHar(positionals[1], values.recording, redact);
  }
  if (!['mock', 'proxy', 'record', 'replay'].includes(command)) {
    process.stderr.write(`Unknown command "${command}"\n\n${USAGE}\n`);
    return 2;
  }
  if ((command === 'proxy' || command === 'record') && !values.upstream) {
    process.stderr.write(`session-agent-sim: ${command} needs --upstream URL (the real server)\n\n${USAGE}\n`);
    return 2;
  }
  if ((command === 'record' || command === 'replay') && !values.recording) {
    process.stderr.write(`session-agent-sim: ${command} needs --recording FILE\n\n${USAGE}\n`);
    return 2;
  }
  if (values.port !== undefined && !/^\d+$/.test(values.port)) {
    process.stderr.write(`session-agent-sim: port must be an integer from 0 to 65535, got "${values.port}"\n`);
    return 2;
  }
  const options: SimOptions = {
    port: values.port === undefined ? undefined : Number(values.port),
    host: values.host,
    seed: values.seed,
    dynamic: values.dynamic,
    projectDir: values['project-dir'],
    realTime: values['real-time'],
    // The CLI serves the default scenario unless told otherwise; the library default is the examples alone.
    scenario: command !== 'mock' || values.scenario === 'none' ? undefined : (values.scenario ?? 'default'),
    upstream: command === 'mock' ? undefined : values.upstream,
    record: command === 'record' ? values.recording : undefined,
    replay: command === 'replay' ? values.recording : undefined,
    redact,
    ignore: values.ignore,
    replayExhausted: values.exhausted as 'last' | 'error' | undefined,
    upstreamTimeout: values['upstream-timeout'] === undefined ? undefined : Number(values['upstream-timeout']),
  };
  try {
    const sim = await startServer(options);
    const { config, spec } = sim.app.sim;
    const source = config.scenario ? `scenario ${sim.app.sim.scenarios?.world.scenario.name ?? config.scenario}, ` : '';
    process.stdout.write(
      command !== 'mock'
        ? `session-agent-sim ${command}: ${sim.url} → ${[config.replay && `recording ${config.replay}`, config.upstream].filter(Boolean).join(', then ')}` +
            `${config.record ? `, recording into ${config.record}` : ''}; answers checked against ${spec.operations.length} operations\n`
        : `session-agent-sim mock: ${spec.operations.length} operations on ${sim.url} ` +
            `(${source}${config.dynamic ? 'dynamic' : 'examples'} fallback, seed "${config.seed}")\n`,
    );
    const stop = () => {
      void sim.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return -1; // keep running
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ScenarioError) {
      process.stderr.write(`session-agent-sim: ${error.message}\n`);
      return 2;
    }
    if (error instanceof SimScenarioNotFoundError) {
      process.stderr.write(`session-agent-sim: ${error.message}. ${String(error.fields.hint)}\n`);
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

function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

async function validateScenarios(paths: string[]): Promise<number> {
  const spec = await loadSpec();
  const files = paths.length ? paths : readdirSync(SCENARIOS_DIR).filter((f) => f.endsWith('.yaml')).map((f) => join(SCENARIOS_DIR, f));
  let bad = 0;
  for (const file of files) {
    try {
      const scenario = loadScenarioFile(file, spec);
      process.stdout.write(`ok    ${file} (${scenario.sessions.length} sessions, ${scenario.forms.length} forms)\n`);
    } catch (error) {
      bad++;
      process.stdout.write(`FAIL  ${file}\n`);
      process.stderr.write(`${error instanceof ScenarioError ? error.message : `${file}:1:1: ${(error as Error).message}`}\n`);
    }
  }
  return bad ? 1 : 0;
}

async function reportDrift(files: string[]): Promise<number> {
  if (!files.length) {
    process.stderr.write('session-agent-sim: drift needs one or more recording files\n');
    return 2;
  }
  const spec = await loadSpec();
  let drifting = false;
  for (const file of files) {
    const report = driftReport(parseRecording(readFileSync(file, 'utf8')), spec);
    drifting ||= report.operations.some((o) => o.findings.length > 0);
    process.stdout.write(`${formatDrift(file, report)}\n`);
  }
  return drifting ? 1 : 0;
}

async function exportHar(file: string | undefined): Promise<number> {
  if (!file) {
    process.stderr.write('session-agent-sim: har-export needs a recording file\n');
    return 2;
  }
  process.stdout.write(`${JSON.stringify(toHar(parseRecording(readFileSync(file, 'utf8')), packageVersion()), null, 2)}\n`);
  return 0;
}

async function importHar(har: string | undefined, recording: string | undefined, redact: SimOptions['redact']): Promise<number> {
  if (!har || !recording) {
    process.stderr.write('session-agent-sim: har-import needs a HAR file and --recording FILE\n');
    return 2;
  }
  const { header, interactions } = fromHar(JSON.parse(readFileSync(har, 'utf8')) as Har, await loadSpec(), mergeRedaction(redact ?? {}));
  writeFileSync(recording, [headerDocument(header), ...interactions.map(interactionDocument)].join(''));
  process.stdout.write(`${recording}: ${interactions.length} interactions from ${har}\n`);
  return 0;
}

const exitCode = await main(process.argv.slice(2));
if (exitCode >= 0) process.exit(exitCode);
