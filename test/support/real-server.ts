/**
 * Starts the real server of this interface (`opencode serve` from the opencode-ai dev dependency) on
 * loopback, in a fresh git repository with a throwaway HOME, and stops it. Offline: it only logs that it
 * cannot fetch its model catalogue.
 *
 * A server's start and its first requests cost about seven processor-seconds, so the files that need a plain
 * one (no scripted model, no files of their own) share one per test process: `sharedRealServer()`. They run
 * one after another in that process, and each keeps to the sessions, PTYs and events it made.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';

export const REAL_SERVER_BINARY = fileURLToPath(
  new URL('../../node_modules/opencode-linux-x64/bin/opencode', import.meta.url),
);

export interface RealServer {
  url: string;
  directory: string;
  stop(): Promise<void>;
}

export function realServerAvailable(): boolean {
  return process.platform === 'linux' && process.arch === 'x64' && existsSync(REAL_SERVER_BINARY);
}

export interface RealServerOptions {
  /** Files written into the workspace before its first commit (`opencode.json` wires a scripted model). */
  files?: Record<string, string>;
  /** Runs until this process ends (see `sharedRealServer()`); `stop()` then does nothing. */
  untilExit?: boolean;
}

let shared: Promise<RealServer> | undefined;

/**
 * The plain real server of this test process, started by the first file that asks and stopped when the
 * process ends, however it ends: it is started behind a shell that stops it and removes its folders once
 * this process's end of a pipe closes. Its `stop()` does nothing; the files after the caller's use it too.
 */
export function sharedRealServer(): Promise<RealServer> {
  shared ??= startRealServer({ untilExit: true }).catch((error: unknown) => {
    shared = undefined; // the next file tries again
    throw error;
  });
  return shared;
}

export async function startRealServer(options: RealServerOptions = {}): Promise<RealServer> {
  const root = mkdtempSync(join(tmpdir(), 'sim-real-'));
  const directory = join(root, 'repo');
  const home = join(root, 'home');
  spawnSync('mkdir', ['-p', directory, home]);
  const git = (...args: string[]) => spawnSync('git', args, { cwd: directory, env: { ...process.env, HOME: home } });
  git('init', '-q');
  for (const [name, text] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(directory, name)), { recursive: true });
    writeFileSync(join(directory, name), text);
  }
  git('add', '-A');
  git('-c', 'user.email=sim@example.invalid', '-c', 'user.name=sim', 'commit', '-q', '--allow-empty', '-m', 'init');
  const port = await freePort();
  const serve = ['serve', '--port', String(port), '--hostname', '127.0.0.1', '--pure'];
  const env = { ...process.env, HOME: home, OPENCODE_SERVER_PASSWORD: '' };
  const child: ChildProcess = options.untilExit
    ? // The shell's stdin is a pipe from this process: it reads end-of-file when this process is gone, even
      // killed, and only then stops the server and removes its folders. In a process group of its own, so
      // that a signal to this run's group (Ctrl-C, a CI's timeout) cannot end the shell before it has done so.
      spawn('sh', ['-c', UNTIL_EXIT, 'sh', root, REAL_SERVER_BINARY, ...serve], {
        cwd: directory,
        env,
        stdio: ['pipe', 'ignore', 'ignore'],
        detached: true,
      })
    : spawn(REAL_SERVER_BINARY, serve, { cwd: directory, env, stdio: 'ignore' });
  // Unreferenced, so that the pipe alone does not keep this process alive.
  if (options.untilExit) {
    child.unref();
    (child.stdin as Socket | null)?.unref();
  }
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // still starting
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      if (options.untilExit) child.stdin?.destroy();
      else child.kill('SIGKILL');
      throw new Error(`the real server did not start on ${url} within 30 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (options.untilExit) return { url, directory, stop: async () => undefined };
  return {
    url,
    directory,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve(undefined);
        }, 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * `sh -c` for `untilExit`: $1 the folder to remove, then the server's command line. The server gets five
 * seconds to end after SIGTERM, as `stop()` gives it, then SIGKILL: one was seen still running after it.
 */
const UNTIL_EXIT = [
  'root=$1; shift',
  '"$@" </dev/null & pid=$!',
  'read -r _',
  'kill $pid',
  '(sleep 5; kill -9 $pid) 2>/dev/null & guard=$!',
  'wait $pid',
  'kill $guard 2>/dev/null',
  'rm -rf "$root"',
].join('; ');
