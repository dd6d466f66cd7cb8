/**
 * The shell blocks of a Markdown document as a reader would run them, and a runner that does run them: each
 * block in one bash, in a scratch directory shared by the document's blocks (files one step writes are there
 * for the next), against simulators started as the block starts them.
 *
 * Conventions the documents follow (docs/getting-started.md says them to readers too):
 * - Every ```sh block is run, top to bottom, unless a line is one of NOT_RUN (each with its reason).
 * - `# …` lines directly under a command (no blank line between) are what it prints; `…` stands for any text.
 *   A command that exits non-zero prints `[exit N]` last, and the document must show that line.
 *   Comment lines above a command, or after a blank line, only explain.
 * - A command that starts a server (`npm start`, `… session-agent-sim mock|replay|proxy|record|model|real …`) runs in
 *   the background until the block ends, unless the document shows it failing; a block that talks to port
 *   4010 and starts none gets the quick start's `npm start`, its own or one it shares with the blocks around
 *   it (`quickStartPort`), so it must hold on a fresh server and after the blocks above it.
 * - Ports 4000-4999 on 127.0.0.1 or localhost are mapped to free ones, and mapped back in what is printed.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

/**
 * How every document has a reader install the package while it is not on the npm registry: the tarball
 * `npm pack` writes in a checkout beside the reader's project (docs/getting-started.md, step 1); packages the
 * page needs as well (vitest, msw) may follow on the same line. test/docs/install-line.test.ts holds every
 * document to it, and test/package/package.test.ts runs it.
 */
export const INSTALL_COMMAND = `npm install -D ../${manifest.name}/${manifest.name}-${manifest.version}.tgz`;

export interface DocCommand {
  /** The command as written (continuations joined, heredoc bodies included). */
  text: string;
  /** Line of the document it starts on. */
  line: number;
  /** What the document says it prints, one entry per line. */
  expected: string[];
}

export interface DocBlock {
  file: string;
  line: number;
  commands: DocCommand[];
}

/** Lines a test cannot run, and where the same thing is tested instead. */
export const NOT_RUN: ReadonlyArray<{ pattern: RegExp; reason: string }> = [
  { pattern: /^npm ci\b/, reason: 'the suite runs in a checkout already installed' },
  { pattern: /^npm test\b/, reason: 'this is npm test' },
  { pattern: /^git clone\b/, reason: 'the suite runs in a clone' },
  {
    pattern: /\bnpm pack\b|^npm (install|i) .*session-agent-sim|^cd \.\.\/my-app$/,
    reason: 'packing and installing the tarball is test/package/package.test.ts',
  },
  {
    pattern: /--upstream http:\/\/127\.0\.0\.1:4096\b/,
    reason: 'needs the real server on port 4096: test/real-server proxies, records and replays it',
  },
  {
    pattern: /login-flow\.yaml/,
    reason:
      'works on what the line recording from the real server wrote: test/real-server does the same with its own recording',
  },
];

export function notRunReason(command: string): string | undefined {
  return NOT_RUN.find(({ pattern }) => pattern.test(command))?.reason;
}

export function shellBlocks(markdown: string, file: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash)\s*$/.test(lines[i] as string)) continue;
    const block: DocBlock = { file, line: i + 1, commands: [] };
    let last: DocCommand | undefined;
    for (i++; i < lines.length && !(lines[i] as string).startsWith('```'); i++) {
      const line = lines[i] as string;
      if (line.trim() === '') {
        last = undefined;
      } else if (line.startsWith('#')) {
        if (last) last.expected.push(line.replace(/^# ?/, ''));
      } else {
        const command: DocCommand = { text: line, line: i + 1, expected: [] };
        while (command.text.endsWith('\\') && i + 1 < lines.length)
          command.text = `${command.text.slice(0, -1)}${lines[++i] as string}`;
        const heredoc = /<<-?\s*'?(\w+)'?/.exec(command.text);
        if (heredoc) {
          while (i + 1 < lines.length && lines[i + 1] !== heredoc[1]) command.text += `\n${lines[++i] as string}`;
          command.text += `\n${lines[++i] ?? ''}`;
        }
        block.commands.push(command);
        last = command;
      }
    }
    blocks.push(block);
  }
  return blocks;
}

const SERVER =
  /^(npm start\b|(npx (--no )?)?session-agent-sim (mock|proxy|record|replay|model|real)\b|node bin\/session-agent-sim\.js (mock|proxy|record|replay|model|real)\b|npx (--no )?session-agent-sim( -|$))/;

export function startsServer(command: string): boolean {
  return SERVER.test(command) && !/ (--help|-h|--version|-v|--print-config)\b/.test(command);
}

export interface CommandResult {
  command: DocCommand;
  /** What it printed (stdout and stderr, as a terminal shows them), ports mapped back. */
  output: string;
  /** Why it was not run, when it was not. */
  skipped?: string;
}

/** The first expected line that is not printed (in order, `…` matching anything), or undefined. */
export function missingLine(expected: string[], output: string): string | undefined {
  // Leading space is layout (vitest indents its summary), not content.
  const printed = output.split('\n').map((line) => line.trim());
  let from = 0;
  for (const want of expected) {
    const pattern = new RegExp(
      `^${want
        .trim()
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    const at = printed.findIndex((line, index) => index >= from && pattern.test(line));
    if (at < 0) return want;
    from = at + 1;
  }
  return undefined;
}

/** Whether a block talks to the quick start's server without starting a server of its own. */
export function usesQuickStart(block: DocBlock): boolean {
  return (
    block.commands.some((c) => /(127\.0\.0\.1|localhost):4010\b/.test(c.text)) &&
    !block.commands.some((c) => {
      // `npm ci && npm start` starts the quick start's server (the runner leaves out the `npm ci`)
      const text = c.text.replace(/^npm ci && /, '');
      return startsServer(text) && !notRunReason(text);
    })
  );
}

/** Whether something listens on a loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The quick start's server on a free port, left running for blocks to share (`quickStartPort`) until `stop()`:
 * what a reader has after the quick start.
 */
export async function startQuickStart(
  quickStart: string,
  { cwd, env, timeoutMs = 30_000 }: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ port: number; stop(): void }> {
  const port = await freePort();
  const child = spawn('bash', ['-c', `exec ${quickStart} --port ${port}`], {
    cwd,
    env,
    detached: true,
    stdio: 'ignore',
  });
  const stop = () => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (!(await listening(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      stop();
      throw new Error(`${quickStart} --port ${port} did not listen within ${timeoutMs} ms (exit ${child.exitCode})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port, stop };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

const MARK = '\u001e';

/**
 * Runs one block in `cwd` with `env`, every curl bounded in time, and gives each command's output. Servers
 * the block starts are stopped when it ends, whatever happens.
 */
export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How the document's reader starts the simulator (`node bin/session-agent-sim.js mock`, `npx session-agent-sim mock`). */
  quickStart: string;
  /**
   * The port of a quick start's server already running (`startQuickStart`), as a reader leaves `npm start`
   * running from one block to the next: a block that talks to port 4010 and starts none talks to it.
   * Without it, such a block gets a server of its own.
   */
  quickStartPort?: number;
  timeoutMs?: number;
}

export async function runBlock(
  block: DocBlock,
  { cwd, env, quickStart, quickStartPort, timeoutMs = 60_000 }: RunOptions,
): Promise<CommandResult[]> {
  const ports = new Map<string, number>(quickStartPort === undefined ? [] : [['4010', quickStartPort]]);
  const mapPort = async (written: string) => {
    if (!ports.has(written)) ports.set(written, await freePort());
    return ports.get(written) as number;
  };
  const script: string[] = [
    'exec 2>&1',
    'trap "kill 0 2>/dev/null" EXIT',
    'up() { for i in $(seq 1 400); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.05; done; echo "nothing listens on $1"; return 1; }',
    // npx of a bin the project installed runs just that bin, as npx would: npm's own start costs a CPU-second a
    // command, and test/package checks the real npx finds the installed bin. Anything else goes to npx.
    'npx() { if [ -x "node_modules/.bin/$1" ]; then local bin="node_modules/.bin/$1"; shift; "$bin" "$@"; else command npx "$@"; fi; }',
  ];
  const results: CommandResult[] = [];
  const run: Array<{ index: number }> = [];
  if (quickStartPort === undefined && usesQuickStart(block)) {
    // What the quick start leaves running: `npm start`, the default scenario on port 4010.
    const port = await mapPort('4010');
    script.push(`${quickStart} --port ${port} > /dev/null 2>&1 &`, `up ${port} > /dev/null`);
  }
  for (const [index, command] of block.commands.entries()) {
    const skipped = notRunReason(command.text.replace(/^npm ci && /, ''));
    results.push({ command, output: '', ...(skipped ? { skipped } : {}) });
    if (skipped) continue;
    // An explaining comment at the end of a one-line command would swallow what the runner appends.
    let text = command.text.replace(/^npm ci && /, '').replace(/^([^\n]*?)\s+#\s[^'"\n]*$/, '$1');
    for (const match of [...text.matchAll(/(127\.0\.0\.1:|localhost:|--port )(4\d{3})\b/g)])
      await mapPort(match[2] as string);
    text = text.replace(
      /(127\.0\.0\.1:|localhost:|--port )(4\d{3})\b/g,
      (_, before: string, port: string) => `${before}${ports.get(port) as number}`,
    );
    // A bound for a curl that would wait forever (a stream); a command's own --max-time, later, wins. Generous:
    // on a loaded two-core machine a first answer that compiles a generator has taken over 3 s.
    text = text.replace(/(^|[|;&(]\s*|\$\()curl /g, '$1curl --max-time 20 ');
    script.push(`printf '\\n${MARK}%s\\n' ${index}`);
    // A server command the document shows failing (`# [exit 2]`) runs in the foreground like any other.
    if (startsServer(text) && !command.expected.some((line) => /^\[exit \d+\]$/.test(line))) {
      // A command the document itself sends to the background (`… &`) is run the same way, its `&` taken off:
      // left on, the log below would get nothing and be waited on for five seconds.
      const own = /\s&\s*$/.test(text);
      if (own) text = text.replace(/\s*&\s*$/, '');
      const written = /--port (\d+)/.exec(text)?.[1];
      const port = written ? Number(written) : await mapPort('4010');
      if (!written)
        text = /^npm start\b/.test(text)
          ? `${text}${text.includes(' -- ') ? '' : ' --'} --port ${port}`
          : `${text} --port ${port}`;
      if (own && /(^|\s)>\s*\S+\s*$/.test(text))
        // Its output goes where the document sends it, and a reader's terminal shows nothing of it.
        script.push(`${text} &`, `up ${port}; status=$?`, '[ "$status" -eq 0 ] || echo "[exit $status]"');
      else
        script.push(
          `${text} > .server-${index}.log 2>&1 &`,
          `up ${port}; status=$?`,
          // Listening comes a moment before the banner is written (under load, a cat right away read nothing), and
          // the banner is written a line at a time (serve.ts): it is read once it has stopped growing.
          `for i in $(seq 1 100); do [ -s .server-${index}.log ] && break; sleep 0.05; done`,
          `size=-1; for i in $(seq 1 20); do now=$(wc -c < .server-${index}.log); [ "$now" = "$size" ] && break; size=$now; sleep 0.1; done`,
          `cat .server-${index}.log`,
          '[ "$status" -eq 0 ] || echo "[exit $status]"',
        );
    } else {
      // A reader sees a failure; so does the test, unless the document shows it (`# [exit 1]`).
      script.push(text, 'status=$?; [ "$status" -eq 0 ] || echo "[exit $status]"');
    }
    run.push({ index });
  }
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('bash', ['-c', script.join('\n')], {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new Error(`${block.file}:${block.line}: the block ran over ${timeoutMs} ms; so far:\n${text}`));
    }, timeoutMs);
    child.on('close', () => {
      clearTimeout(timer);
      void reap(child.pid as number).then(() => resolve(text));
    });
  });
  let mapped = output;
  for (const [written, port] of ports) mapped = mapped.replaceAll(String(port), written);
  for (const part of mapped.split(`\n${MARK}`).slice(1)) {
    const newline = part.indexOf('\n');
    const index = Number(part.slice(0, newline));
    (results[index] as CommandResult).output = part.slice(newline + 1).replace(/\n$/, '');
  }
  return results;
}

/**
 * After a block's shell has ended: its trap has sent SIGTERM to every process the block started. They get
 * time to finish stopping (`session-agent-sim real` stops the runtime, then removes its folders: killed
 * at once, it left them behind), and whatever still runs after that is killed.
 */
async function reap(group: number, graceMs = 10_000): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (running(group)) {
    if (Date.now() >= deadline) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Whether a process of the group still runs. One that has exited but is not yet reaped (its parent, the
 * block's shell, is gone, and the init that inherits it reaps when it gets to it) still takes a signal: a
 * second and a half of waiting a block, if it counted.
 */
function running(group: number): boolean {
  try {
    process.kill(-group, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // After the command's name: state, parent, group.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === group && state !== 'Z') return true;
  }
  return false;
}
