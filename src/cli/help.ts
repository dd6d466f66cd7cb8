/**
 * The help texts: an overview of the commands, and each command's usage, options and examples, all
 * derived from the tables in commands.ts and options.ts.
 */
import { COMMAND_NAMES, COMMANDS, type CommandName, type CommandSpec } from './commands.js';
import { GLOBAL_OPTIONS, OPTIONS, flagLabel, type OptionName } from './options.js';

const PROGRAM = 'session-agent-sim';
const WIDTH = 100;

export function overview(version: string): string {
  const width = Math.max(...COMMAND_NAMES.map((c) => c.length)) + 2;
  return [
    `${PROGRAM} ${version}: a mock and record-replay simulator for the session agent HTTP interface`,
    '',
    `Usage: ${PROGRAM} <command> [options]`,
    `       ${PROGRAM} [options]        with no command: mock`,
    '',
    'Commands:',
    ...COMMAND_NAMES.map((name) => `  ${name.padEnd(width)}${COMMANDS[name].summary}`),
    '',
    'Every command takes:',
    ...optionLines(GLOBAL_OPTIONS.map((name) => ({ name }))),
    '',
    `Run "${PROGRAM} <command> --help" (or "${PROGRAM} help <command>") for its options and examples.`,
    `From a checkout the command is "node bin/${PROGRAM}.js"; "npm start" runs mock.`,
  ].join('\n');
}

export function commandHelp(command: CommandName): string {
  const spec: CommandSpec = COMMANDS[command];
  const options = [...spec.options, ...GLOBAL_OPTIONS.map((name) => ({ name }))];
  return [
    `Usage: ${PROGRAM} ${spec.usage}`,
    '',
    ...spec.description,
    '',
    'Options:',
    ...optionLines(options),
    '',
    'Examples:',
    ...spec.examples.flatMap(([what, line], i) => [...(i ? [''] : []), `  # ${what}`, `  ${line}`]),
  ].join('\n');
}

/** The line that sends someone from an error to the help that would have avoided it. */
export function helpHint(command: CommandName | undefined): string {
  return command
    ? `Run "${PROGRAM} ${command} --help" for its options and examples.`
    : `Run "${PROGRAM} --help" for the commands.`;
}

function optionLines(options: ReadonlyArray<{ name: OptionName; help?: string; required?: boolean }>): string[] {
  const width = Math.max(...options.map((o) => flagLabel(o.name).length)) + 2;
  return options.flatMap(({ name, help, required }) => {
    const spec: { help: string; shownDefault?: string } = OPTIONS[name];
    const text = `${required ? '(required) ' : ''}${help ?? spec.help}${spec.shownDefault === undefined ? '' : ` (default: ${spec.shownDefault})`}`;
    return wrap(text, WIDTH - width - 2).map((line, i) => `  ${(i ? '' : flagLabel(name)).padEnd(width)}${line}`);
  });
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return [...lines, line];
}
