/**
 * Runs one command line: help, version, or a command. Mistakes in the command line end here as a sentence
 * on stderr, the help to read, and exit code 2.
 */
import { commandHelp, helpHint, overview } from './help.js';
import { parseCommandLine, redaction, type CommandLine } from './parse.js';
import { UsageError } from './usage-error.js';
import { packageVersion } from './version.js';

/** Resolves the exit code, or -1 when a server was started and the process must stay up. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(await parseCommandLine(argv));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${helpHint(error.command)}\n`);
    return 2;
  }
}

async function run(line: CommandLine): Promise<number> {
  switch (line.action) {
    case 'overview':
      process.stdout.write(`${overview(packageVersion())}\n`);
      return 0;
    case 'help':
      process.stdout.write(`${commandHelp(line.command)}\n`);
      return 0;
    case 'version':
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
  }
  // Loaded on demand: the server and the spec tooling take a quarter of a second to import, which help,
  // --version and a mistyped command line should not wait for.
  const { command, values, arguments: args } = line;
  if (command === 'mock' || command === 'proxy' || command === 'record' || command === 'replay') {
    const { serve, simOptions } = await import('./serve.js');
    return serve(command, simOptions(command, values), line.implied);
  }
  if (command === 'model' || command === 'real') {
    const { modelCommand, realCommand } = await import('./model.js');
    return command === 'model' ? modelCommand(values) : realCommand(values);
  }
  if (command === 'spec-diff') {
    const { specDiffCommand } = await import('./spec-diff.js');
    return specDiffCommand(args[0] as string, args[1] as string, values.json === true);
  }
  const files = await import('./files.js');
  switch (command) {
    case 'validate':
      return files.validateScenarios(args);
    case 'drift':
      return files.reportDrift(args);
    case 'har-export':
      return files.exportHar(args[0] as string);
    case 'scenario-from':
      return files.generateScenario(
        args[0] as string,
        values.out as string | undefined,
        values.name as string | undefined,
      );
    case 'scenario-diff':
      return files.diffScenario(args[0] as string, args[1] as string, values.tolerance as string | undefined);
    case 'har-import':
      return files.importHar(args[0] as string, values.recording as string, redaction(values));
  }
}
