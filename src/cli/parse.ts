/**
 * From argv to what to do: the command, its flags and arguments, or a UsageError that says what is wrong in
 * the user's terms and what was probably meant.
 */
import { parseArgs } from 'node:util';
import type { SimOptions } from '../config/config.js';
import { closest } from '../text/closest.js';
import {
  COMMANDS,
  COMMAND_NAMES,
  commandsTaking,
  isCommand,
  optionsOf,
  type CommandName,
  type CommandSpec,
} from './commands.js';
import { OPTIONS, flagLabel, isOption, type OptionName } from './options.js';
import { UsageError } from './usage-error.js';

export type RunCommand = Exclude<CommandName, 'help'>;

export type CommandLine =
  | { action: 'overview' }
  | { action: 'help'; command: CommandName }
  | { action: 'version' }
  | { action: 'run'; command: RunCommand; values: Values; arguments: string[]; implied?: true };

export type Values = ReturnType<typeof parseStrictly>['values'];

// Every command's flags at once: which command is meant is known only once the positionals are, and a
// flag of another command deserves "that is an option of proxy", not "unknown option".
function parseStrictly(args: string[]) {
  return parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true, tokens: true });
}

export async function parseCommandLine(argv: string[]): Promise<CommandLine> {
  const first = argv[0];
  // A first word that is not a flag can only be the command; name it before any flag error it would confuse.
  if (first !== undefined && !first.startsWith('-') && !isCommand(first)) throw await unknownCommand(first);
  let parsed;
  try {
    parsed = parseStrictly(argv);
  } catch (error) {
    throw rephrase(error, argv);
  }
  const { values, positionals, tokens } = parsed;
  const [word, ...rest] = positionals;
  if (word !== undefined && !isCommand(word)) throw await unknownCommand(word);
  if (values.version) return { action: 'version' };
  if (word === 'help') {
    const [topic, ...extra] = rest;
    if (extra.length)
      throw new UsageError(`help takes one command, got ${rest.map((r) => `"${r}"`).join(' ')}.`, 'help');
    if (topic === undefined) return { action: 'overview' };
    if (!isCommand(topic)) throw await unknownCommand(topic);
    return { action: 'help', command: topic };
  }
  if (values.help) return word === undefined ? { action: 'overview' } : { action: 'help', command: word };

  // Without a command the simulator serves, as it always has: `session-agent-sim --port 0` is a mock.
  const command = word ?? 'mock';
  const spec: CommandSpec = COMMANDS[command];
  const accepted = optionsOf(command);
  for (const token of tokens) {
    if (token.kind === 'option' && !accepted.includes(token.name as OptionName)) {
      const takers = commandsTaking(token.name as OptionName);
      throw new UsageError(
        `${command} does not take ${token.rawName}${word === undefined ? ' (with no command, session-agent-sim runs mock)' : ''}; it is an option of ${takers.join(', ')}.`,
        command,
      );
    }
  }
  if (rest.length < spec.arguments.min)
    throw new UsageError(
      `${command} needs ${spec.arguments.missing ?? 'an argument'}: session-agent-sim ${spec.usage}`,
      command,
    );
  if (rest.length > spec.arguments.max) {
    const got = rest.map((r) => `"${r}"`).join(' ');
    const scenario = command === 'mock' ? await scenarioNamed(rest) : undefined;
    throw new UsageError(
      `${command} takes ${spec.arguments.max === 0 ? 'no arguments' : `${COUNTS[spec.arguments.max] ?? spec.arguments.max} (session-agent-sim ${spec.usage})`}, got ${got}.` +
        (scenario ? ` To serve that scenario: session-agent-sim mock --scenario ${scenario}` : ''),
      command,
    );
  }
  for (const option of spec.options) {
    if (option.required && values[option.name] === undefined) {
      throw new UsageError(
        `${command} needs ${flagLabel(option.name)}: ${option.help ?? OPTIONS[option.name].help}.`,
        command,
      );
    }
  }
  return { action: 'run', command, values, arguments: rest, ...(word === undefined ? { implied: true as const } : {}) };
}

const COUNTS: Record<number, string> = { 1: 'one argument', 2: 'two arguments' };

export function redaction(values: Values): NonNullable<SimOptions['redact']> {
  return { headers: values['redact-header'], query: values['redact-query'], pointers: values['redact-pointer'] };
}

async function unknownCommand(word: string): Promise<UsageError> {
  const near = closest(word, COMMAND_NAMES);
  const scenario = near ? undefined : await scenarioNamed([word]);
  return new UsageError(
    `Unknown command "${word}".${near ? ` Did you mean "${near}"?` : ''}` +
      (scenario ? ` "${scenario}" is a scenario: session-agent-sim mock --scenario ${scenario}` : ''),
    undefined,
  );
}

/**
 * The first word that names a shipped scenario: people write `mock forms-settling`. Loaded only on this
 * error path, because finding the scenarios folder loads the scenario module and help should start at once.
 */
async function scenarioNamed(words: string[]): Promise<string | undefined> {
  const { scenarioNames } = await import('./scenario-names.js');
  const available = scenarioNames();
  return words.find((w) => available.includes(w));
}

/** parseArgs' errors are written for programmers ("place it at the end of the command after '--'"); say it for users. */
function rephrase(error: unknown, argv: string[]): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return error;
  // Without strictness the parser reads on past the bad flag, which is how we learn the command it was meant for.
  const { tokens } = parseArgs({ args: argv, options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const named = tokens.find((t) => t.kind === 'positional' && isCommand(t.value));
  const command: CommandName = named?.kind === 'positional' && isCommand(named.value) ? named.value : 'mock';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const unknown = tokens.find((t) => t.kind === 'option' && !isOption(t.name));
    // `-port` is read as the short flags -p -o -r -t: show what was typed, not its first letter.
    const typed =
      unknown?.kind === 'option'
        ? (argv[unknown.index] ?? unknown.rawName).split('=')[0]
        : /'([^']+)'/.exec((error as Error).message)?.[1];
    return unknownOption(typed ?? '', command);
  }
  const flag = /'(-{1,2}[^' ]+)/.exec((error as Error).message)?.[1] ?? '';
  const name = flag.startsWith('--')
    ? flag.slice(2)
    : Object.keys(OPTIONS).find((n) => (OPTIONS[n as OptionName] as { short?: string }).short === flag.slice(1));
  if (name === undefined || !isOption(name)) return new UsageError((error as Error).message, command);
  if (OPTIONS[name].type === 'boolean') return new UsageError(`--${name} takes no value.`, command);
  const dash = /ambiguous/.test((error as Error).message)
    ? ` To give a value starting with "-", write --${name}=-…`
    : '';
  return new UsageError(`--${name} needs a value: ${flagLabel(name)}.${dash}`, command);
}

function unknownOption(typed: string, command: CommandName): UsageError {
  const word = typed.replace(/^-+/, '');
  const own = closest(word, optionsOf(command));
  if (own) return new UsageError(`Unknown option ${typed}. Did you mean --${own}?`, command);
  const other = closest(word, Object.keys(OPTIONS));
  if (other && isOption(other)) {
    return new UsageError(
      `Unknown option ${typed}. Did you mean --${other}? It is an option of ${commandsTaking(other).join(', ')}, not of ${command}.`,
      command,
    );
  }
  return new UsageError(`Unknown option ${typed}.`, command);
}
