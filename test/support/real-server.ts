/**
 * Starts the real server of this interface (`opencode serve` from the opencode-ai dev dependency) on
 * loopback, in a fresh git repository with a throwaway HOME, and stops it. Offline: it only logs that it
 * cannot fetch its model catalogue.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  const child: ChildProcess = spawn(
    REAL_SERVER_BINARY,
    ['serve', '--port', String(port), '--hostname', '127.0.0.1', '--pure'],
    {
      cwd: directory,
      env: { ...process.env, HOME: home, OPENCODE_SERVER_PASSWORD: '' },
      stdio: 'ignore',
    },
  );
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
      child.kill('SIGKILL');
      throw new Error(`the real server did not start on ${url} within 30 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
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
