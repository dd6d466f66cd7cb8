/**
 * Scenario names on the command line: `validate forms-settling` and `mock --scenario forms-settling` both
 * mean scenarios/forms-settling.yaml, and a misspelt name is caught before anything loads.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isScenarioPath, SCENARIOS_DIR, scenarioNames } from '../scenarios/scenario-library.js';
import { closest, didYouMean } from '../text/closest.js';
import type { CommandName } from './commands.js';
import { UsageError } from './usage-error.js';

export { isScenarioPath, scenarioNames } from '../scenarios/scenario-library.js';

/** What a scenario argument (`forms-settling`, `./mine.yaml`) stands for: an existing file, or a UsageError. */
export function scenarioArgument(arg: string, command: CommandName): string {
  if (!isScenarioPath(arg)) return scenarioFile(arg, command);
  if (existsSync(arg)) return arg;
  // `scenarios/forms-setling.yaml` is as likely a slip in the name as in the path.
  throw new UsageError(
    `No such file: ${arg}.${didYouMean(basename(arg).replace(/\.ya?ml$/, ''), scenarioNames())}`,
    command,
  );
}

export function shippedScenarioFiles(): string[] {
  return scenarioNames().map((name) => join(SCENARIOS_DIR, `${name}.yaml`));
}

/** The file a name stands for, or a UsageError naming the closest scenario and the available ones. */
export function scenarioFile(name: string, command: CommandName): string {
  const file = join(SCENARIOS_DIR, `${name}.yaml`);
  if (existsSync(file)) return file;
  const available = scenarioNames();
  const near = closest(name, available);
  throw new UsageError(
    `No scenario "${name}".${near ? ` Did you mean "${near}"?` : ''}\n` +
      `Available: ${available.join(', ') || '(none)'}; or give a path to a .yaml file.`,
    command,
  );
}
