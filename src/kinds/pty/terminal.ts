/**
 * The simulated terminal: what typing into a PTY prints, as a pure function of its script, its state and the
 * input. The line discipline echoes keys as a terminal does (Enter as `\r\n`, Backspace, Ctrl-C, Ctrl-D,
 * Ctrl-U, Ctrl-L; escape sequences such as arrow keys are swallowed); a shell then runs each entered line:
 * the scenario's replies first, then a few commands it knows (echo, pwd, cd, exit, clear, true, false,
 * whoami, date), and anything else is not found, as bash would say it. No randomness, no wall time.
 */
import { posix } from 'node:path';
import type { PtyReply, PtyScript, TerminalState } from './types.js';

/** What one message typed into the terminal did. */
export interface Typed {
  output: string;
  terminal: TerminalState;
  /** The shell exited (`exit`, Ctrl-D on an empty line, Ctrl-C to a program): its exit code. */
  exitCode?: number;
}

/** What the terminal may read of the world around it. */
export interface TerminalContext {
  /** Virtual time, for `date`. */
  now: number;
}

/** Longest escape sequence kept across messages; a longer one is dropped (no key sends one). */
const MAX_ESCAPE = 32;
/** Longest line the terminal takes; keys past it ring the bell, so its state stays bounded however much is typed. */
export const MAX_LINE = 8192;

/** Text as a terminal prints it: each lone `\n` becomes `\r\n`. */
export function crlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** The home directory a cwd suggests (`/home/dev/acme-web` → `/home/dev`), and its user. */
export function homeOf(cwd: string): { home: string; user: string } {
  const match = /^\/(?:home|Users)\/[^/]+/.exec(cwd);
  return match ? { home: match[0], user: posix.basename(match[0]) } : { home: '/root', user: 'root' };
}

/** The prompt as printed: bash's `\w` (cwd, home as ~), `\W` (its last part), `\u`, `\h`, `\$`. */
export function renderPrompt(prompt: string, cwd: string): string {
  const { home, user } = homeOf(cwd);
  const tilde = cwd === home ? '~' : cwd.startsWith(`${home}/`) ? `~${cwd.slice(home.length)}` : cwd;
  return prompt.replace(/\\([wWuh$\\])/g, (_, code: string) => {
    switch (code) {
      case 'w':
        return tilde;
      case 'W':
        return tilde === '~' ? '~' : posix.basename(cwd) || '/';
      case 'u':
        return user;
      case 'h':
        return 'localhost';
      case '$':
        return user === 'root' ? '#' : '$';
      default:
        return '\\';
    }
  });
}

/** Types `input` into the terminal: what it prints back, the state it is left in, and whether it exited. */
export function typeInto(script: PtyScript, terminal: TerminalState, input: string, context: TerminalContext): Typed {
  let { line, cwd, status, escape } = terminal;
  let output = '';
  const state = (): TerminalState => ({ line, cwd, status, escape });
  const prompt = () => renderPrompt(script.prompt, cwd);
  for (const key of input) {
    if (escape) {
      escape += key;
      // CSI (`ESC [ … final`) ends on a final byte; SS3 (`ESC O x`) and two-character sequences on their next key.
      const done = escape.startsWith('\x1b[')
        ? escape.length > 2 && /[@-~]/.test(key)
        : escape.length >= 3 || escape[1] !== 'O';
      if (done || escape.length > MAX_ESCAPE) escape = '';
      continue;
    }
    if (key === '\x1b') {
      escape = key;
      continue;
    }
    if (key === '\r' || key === '\n') {
      output += '\r\n';
      if (!script.interactive) {
        line = '';
        continue;
      }
      const ran = run(script, line, { cwd, status }, context);
      line = '';
      output += ran.output;
      cwd = ran.cwd;
      status = ran.status;
      if (ran.exit) return { output, terminal: state(), exitCode: status };
      output += prompt();
    } else if (key === '\x7f' || key === '\b') {
      if (!line) continue;
      line = [...line].slice(0, -1).join('');
      output += '\b \b';
    } else if (key === '\x03') {
      output += '^C\r\n';
      line = '';
      status = 130;
      // A program is interrupted; a shell only abandons the line.
      if (!script.interactive) return { output, terminal: state(), exitCode: status };
      output += prompt();
    } else if (key === '\x04') {
      if (!script.interactive || line) continue;
      output += script.login ? 'logout\r\n' : 'exit\r\n';
      return { output, terminal: state(), exitCode: status };
    } else if (key === '\x15') {
      output += '\b \b'.repeat([...line].length);
      line = '';
    } else if (key === '\x0c') {
      output += `\x1b[H\x1b[2J${script.interactive ? prompt() : ''}${line}`;
    } else if (key >= ' ') {
      if (line.length >= MAX_LINE) {
        output += '\x07';
        continue;
      }
      line += key;
      output += key;
    }
  }
  return { output, terminal: state() };
}

interface Ran {
  output: string;
  cwd: string;
  status: number;
  exit?: true;
}

/** Runs one entered line in the shell. */
function run(script: PtyScript, line: string, shell: { cwd: string; status: number }, context: TerminalContext): Ran {
  const { cwd, status } = shell;
  const entered = line.trim();
  if (!entered) return { output: '', cwd, status };
  const reply = script.replies.find((r) => replies(r, entered));
  if (reply) return { output: printed(reply.output), cwd, status: reply.exitCode };
  const { home, user } = homeOf(cwd);
  const [command = '', ...args] = words(entered, { status, cwd, home });
  switch (command) {
    case 'echo': {
      const bare = args[0] === '-n';
      const text = (bare ? args.slice(1) : args).join(' ');
      return { output: bare ? text : `${text}\r\n`, cwd, status: 0 };
    }
    case 'pwd':
      return { output: `${cwd}\r\n`, cwd, status: 0 };
    case 'cd':
      // No file system to ask: every directory exists.
      return {
        output: '',
        cwd: posix.resolve(cwd, args[0] === undefined || args[0] === '-' ? home : args[0]),
        status: 0,
      };
    case 'exit':
    case 'logout': {
      const code = args[0] === undefined ? status : Number.parseInt(args[0], 10);
      const exitCode = Number.isNaN(code) ? 2 : ((code % 256) + 256) % 256;
      return { output: script.login ? 'logout\r\n' : 'exit\r\n', cwd, status: exitCode, exit: true };
    }
    case 'clear':
      return { output: '\x1b[H\x1b[2J', cwd, status: 0 };
    case 'true':
    case ':':
      return { output: '', cwd, status: 0 };
    case 'false':
      return { output: '', cwd, status: 1 };
    case 'whoami':
      return { output: `${user}\r\n`, cwd, status: 0 };
    case 'date':
      return { output: `${dateText(context.now)}\r\n`, cwd, status: 0 };
    default:
      return { output: `${notFound(script.shell, command)}\r\n`, cwd, status: 127 };
  }
}

function replies(reply: PtyReply, entered: string): boolean {
  if (reply.input !== undefined) return reply.input.trim() === entered;
  return reply.match !== undefined && new RegExp(reply.match).test(entered);
}

/** A command's output as the terminal shows it: `\r\n` line ends, and a last line that ends. */
function printed(text: string): string {
  const out = crlf(text);
  return out === '' || out.endsWith('\r\n') ? out : `${out}\r\n`;
}

/** The line's words as a shell splits them: quotes, backslashes, `$?`, `$PWD`, `$HOME`, `$USER` and a leading `~`. */
function words(entered: string, vars: { status: number; cwd: string; home: string }): string[] {
  const values: Record<string, string> = {
    '?': String(vars.status),
    PWD: vars.cwd,
    HOME: vars.home,
    USER: homeOf(vars.cwd).user,
  };
  const out: string[] = [];
  let word: string | undefined;
  let quote: '' | "'" | '"' = '';
  for (let i = 0; i < entered.length; i++) {
    const ch = entered[i] as string;
    if (quote === "'") {
      if (ch === "'") quote = '';
      else word += ch;
    } else if (ch === '\\' && i + 1 < entered.length) {
      word = (word ?? '') + entered[++i];
    } else if (ch === '$' && /[?A-Z]/.test(entered[i + 1] ?? '')) {
      const name = entered[i + 1] === '?' ? '?' : (/^[A-Z_]+/.exec(entered.slice(i + 1))?.[0] ?? '');
      word = (word ?? '') + (values[name] ?? '');
      i += name.length;
    } else if (quote === '"') {
      if (ch === '"') quote = '';
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else if (ch === '~' && word === undefined && /^(\/|\s|$)/.test(entered.slice(i + 1))) {
      word = vars.home;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (word !== undefined) out.push(word);
  return out;
}

function notFound(shell: string, command: string): string {
  if (shell === 'zsh') return `zsh: command not found: ${command}`;
  if (shell === 'fish') return `fish: Unknown command: ${command}`;
  if (shell === 'sh' || shell === 'dash') return `${shell}: 1: ${command}: not found`;
  return `${shell}: ${command}: command not found`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `date` as it prints in UTC: `Wed Nov 25 19:56:52 UTC 2026`. */
function dateText(now: number): string {
  const d = new Date(now);
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = String(d.getUTCDate()).padStart(2, ' ');
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${day} ${time} UTC ${d.getUTCFullYear()}`;
}
