/**
 * The commands that work on files and exit: validate (scenarios), drift, har-export and har-import
 * (recordings), scenario-from and scenario-diff (a recording and a scenario).
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { readTimeline } from '../derive/timeline.js';
import { formatDiff, scenarioDiff } from '../derive/scenario-diff.js';
import { scenarioFrom } from '../derive/scenario-from.js';
import type { SimOptions } from '../config/config.js';
import { driftReport, formatDrift } from '../recordings/drift.js';
import { headerDocument, interactionDocument, parseRecording } from '../recordings/format.js';
import { fromHar, toHar, type Har } from '../recordings/har.js';
import { mergeRedaction } from '../recordings/redact.js';
import { ScenarioError } from '../scenarios/definition.js';
import { SCENARIO_SCHEMA_PATH } from '../scenarios/format.js';
import { loadScenarioFile } from '../scenarios/load-scenario.js';
import { loadSpec } from '../openapi/openapi.js';
import type { CommandName } from './commands.js';
import { scenarioArgument, shippedScenarioFiles } from './scenario-names.js';
import { UsageError } from './usage-error.js';
import { packageVersion } from './version.js';
import { writeWholeFile } from '../files/whole-file.js';

export async function validateScenarios(namesOrPaths: string[]): Promise<number> {
  // Every name is resolved before anything is checked: a typo stops the run instead of hiding in a long report.
  const files = namesOrPaths.length
    ? namesOrPaths.map((arg) => scenarioArgument(arg, 'validate'))
    : shippedScenarioFiles();
  const spec = await loadSpec();
  let bad = 0;
  for (const file of files) {
    try {
      const scenario = loadScenarioFile(file, spec);
      process.stdout.write(
        `ok    ${file} (${count(scenario.sessions.length, 'session')}, ${count(scenario.forms.length, 'form')})\n`,
      );
    } catch (error) {
      bad++;
      process.stdout.write(`FAIL  ${file}\n`);
      process.stderr.write(
        `${error instanceof ScenarioError ? error.message : `${file}:1:1: ${(error as Error).message}`}\n`,
      );
    }
  }
  return bad ? 1 : 0;
}

export async function reportDrift(files: string[]): Promise<number> {
  const spec = await loadSpec();
  let drifting = false;
  for (const file of files) {
    const report = driftReport(parseRecording(readInput(file, 'drift')), spec);
    drifting ||= report.operations.some((o) => o.findings.length > 0);
    process.stdout.write(`${formatDrift(file, report)}\n`);
  }
  return drifting ? 1 : 0;
}

export function exportHar(file: string): number {
  process.stdout.write(
    `${JSON.stringify(toHar(parseRecording(readInput(file, 'har-export')), packageVersion()), null, 2)}\n`,
  );
  return 0;
}

export async function importHar(har: string, recording: string, redact: SimOptions['redact']): Promise<number> {
  const { header, interactions } = fromHar(
    JSON.parse(readInput(har, 'har-import')) as Har,
    await loadSpec(),
    mergeRedaction(redact ?? {}),
  );
  writeWholeFile(recording, [headerDocument(header), ...interactions.map(interactionDocument)].join(''));
  process.stdout.write(`${recording}: ${interactions.length} interactions from ${har}\n`);
  return 0;
}

export async function generateScenario(
  recording: string,
  out: string | undefined,
  name: string | undefined,
): Promise<number> {
  // A scenario loaded from a file must carry the file's name: checked before the recording is read, as
  // the command line's own mistakes come first.
  const scenarioName = name ?? basename(out ?? recording).replace(/\.ya?ml$/, '');
  if (out && name && basename(out).replace(/\.ya?ml$/, '') !== name)
    throw new UsageError(
      `--name ${name} must match the --out file's name (${basename(out)}): a scenario file is named after its scenario.`,
      'scenario-from',
    );
  // The format's own pattern for `name`: anything else would be written, then refused when loaded.
  if (!/^[a-z0-9][a-z0-9-]*$/.test(scenarioName))
    throw new UsageError(
      `"${scenarioName}" cannot name a scenario: use lower-case letters, digits and dashes, in the --out file's name or with --name NAME.`,
      'scenario-from',
    );
  const parsed = parseRecording(readInput(recording, 'scenario-from'));
  // The editor's modeline points at the format's schema wherever the scenario is written (a project's own folder).
  const schema = relative(dirname(resolve(out ?? 'scenario.yaml')), SCENARIO_SCHEMA_PATH);
  const generated = await scenarioFrom(parsed, await loadSpec(), {
    name: scenarioName,
    source: recording,
    schema: schema.startsWith('.') ? schema : `./${schema}`,
  });
  if (out) {
    // Written whole or not at all: an interrupted run never leaves half a scenario.
    writeWholeFile(out, generated.yaml);
  } else {
    process.stdout.write(generated.yaml);
  }
  const { report } = generated;
  const compared = report.verdicts.filter((v) => v.kind !== 'skipped').length;
  process.stderr.write(
    `${out ?? 'scenario'}: ${scenarioName} from ${parsed.interactions.length} interactions; against the recording ${compared} compared, ${report.departures} depart; ` +
      `${generated.rules} rule${generated.rules === 1 ? '' : 's'}, ${generated.outside.length} interaction${generated.outside.length === 1 ? '' : 's'} outside the spec\n`,
  );
  return 0;
}

export async function diffScenario(
  scenario: string,
  recording: string,
  tolerance: string | undefined,
): Promise<number> {
  const toleranceMs = tolerance === undefined ? undefined : Number(tolerance);
  if (toleranceMs !== undefined && !(Number.isFinite(toleranceMs) && toleranceMs >= 0))
    throw new UsageError(
      `--tolerance must be a number of milliseconds (0 or more), got "${tolerance}".`,
      'scenario-diff',
    );
  const file = scenarioArgument(scenario, 'scenario-diff');
  const timeline = readTimeline(parseRecording(readInput(recording, 'scenario-diff')), await loadSpec());
  let report;
  try {
    report = await scenarioDiff(file, timeline, { toleranceMs });
  } catch (error) {
    // A scenario that does not load is reported as validate reports it.
    if (!(error instanceof ScenarioError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  process.stdout.write(`${formatDiff(file, recording, report)}\n`);
  return report.departures ? 1 : 0;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A missing input file is a mistyped argument, not a crash: a sentence, not a stack trace. */
function readInput(file: string, command: CommandName): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`No such file: ${file}`, command);
    if (code === 'EISDIR') throw new UsageError(`${file} is a directory; ${command} reads a file.`, command);
    throw error;
  }
}
