/**
 * The commands that work on files and exit: validate (scenarios), drift, har-export and har-import
 * (recordings).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { SimOptions } from '../config.js';
import { driftReport, formatDrift } from '../recordings/drift.js';
import { headerDocument, interactionDocument, parseRecording } from '../recordings/format.js';
import { fromHar, toHar, type Har } from '../recordings/har.js';
import { mergeRedaction } from '../recordings/redact.js';
import { ScenarioError } from '../scenarios/definition.js';
import { loadScenarioFile } from '../scenarios/load-scenario.js';
import { loadSpec } from '../spec/openapi.js';
import type { CommandName } from './commands.js';
import { isScenarioPath, scenarioFile, shippedScenarioFiles } from './scenario-names.js';
import { UsageError } from './usage-error.js';
import { packageVersion } from './version.js';

export async function validateScenarios(namesOrPaths: string[]): Promise<number> {
  // Every name is resolved before anything is checked: a typo stops the run instead of hiding in a long report.
  const files = namesOrPaths.length
    ? namesOrPaths.map((arg) => (isScenarioPath(arg) ? arg : scenarioFile(arg, 'validate')))
    : shippedScenarioFiles();
  const spec = await loadSpec();
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
  process.stdout.write(`${JSON.stringify(toHar(parseRecording(readInput(file, 'har-export')), packageVersion()), null, 2)}\n`);
  return 0;
}

export async function importHar(har: string, recording: string, redact: SimOptions['redact']): Promise<number> {
  const { header, interactions } = fromHar(JSON.parse(readInput(har, 'har-import')) as Har, await loadSpec(), mergeRedaction(redact ?? {}));
  writeFileSync(recording, [headerDocument(header), ...interactions.map(interactionDocument)].join(''));
  process.stdout.write(`${recording}: ${interactions.length} interactions from ${har}\n`);
  return 0;
}

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
