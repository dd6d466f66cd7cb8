/**
 * The real runtime, offline (`session-agent-sim real`, `startRealRuntime`): `opencode serve` on loopback, in a
 * throwaway git workspace with a throwaway HOME, its model the scenario's turns (`startScriptedModel`). A
 * prompt then plays a real turn: the runtime's own agent loop, its real tools in that workspace, its events.
 *
 * Nothing leaves the machine: the model is on loopback, the web tools are denied, the runtime is told not to
 * fetch its model catalogue, update itself or download language servers, and it starts only where `rg` is on
 * PATH (its grep and glob tools download one otherwise).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { TurnMatch } from '../kinds/session/types.js';
import type { ScenarioSource } from '../scenarios/scenario-library.js';
import { startScriptedModel, type ScriptedModel } from '../scripted-model/scripted-model.js';
import { onPath } from './on-path.js';
import { runtimeConfig } from './runtime-config.js';

export interface RealRuntimeOptions {
  /** The scenario whose turns the model plays, and whose agents' rules the runtime takes. Default: default. */
  scenario?: ScenarioSource;
  match?: TurnMatch;
  /** Multiplies the script's pauses (see `ScriptedModelOptions.pace`). Default 1. */
  pace?: number;
  /** The `opencode` binary; default: the installed `opencode-<platform>-<arch>` package's. */
  opencode?: string;
  /** The workspace (a git repository is made there if it is none); default: a throwaway one, removed on stop. */
  dir?: string;
  /** Default 4096, the runtime's own; 0 picks a free one. */
  port?: number;
  host?: string;
  /** The runtime's Basic auth: `PASS` (user opencode) or `USER:PASS`. */
  auth?: string;
  /** The model's side: kept in this file, or answered from it (`ScriptedModelOptions.record`, `replay`). */
  record?: string;
  replay?: string;
  /** How long to wait for the runtime to answer its health check. Default 30 s. */
  startTimeoutMs?: number;
}

export interface RealRuntime {
  readonly url: string;
  readonly directory: string;
  readonly model: ScriptedModel;
  /** Stops the runtime and the model, and removes what was made for them. */
  stop(): Promise<void>;
}

/** Why the runtime cannot start here, said so that the user can act on it. */
export class RealRuntimeError extends Error {}

const STOP_GRACE_MS = 5000;

export function installedOpencode(): string | undefined {
  const require = createRequire(import.meta.url);
  try {
    const manifest = require.resolve(`opencode-${process.platform}-${process.arch}/package.json`);
    const binary = join(dirname(manifest), 'bin', process.platform === 'win32' ? 'opencode.exe' : 'opencode');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

export async function startRealRuntime(options: RealRuntimeOptions = {}): Promise<RealRuntime> {
  const binary = options.opencode ? resolve(options.opencode) : installedOpencode();
  if (!binary || !existsSync(binary))
    throw new RealRuntimeError(
      options.opencode
        ? `No opencode binary at ${binary}: give the path to one with --opencode.`
        : `No opencode binary: install the package for this machine (npm install -D opencode-${process.platform}-${process.arch}@1.18.33) or give one with --opencode PATH.`,
    );
  if (!onPath('rg'))
    throw new RealRuntimeError(
      "ripgrep (rg) is not on PATH, and the runtime's grep and glob tools would download it: install it first (Debian: apt-get install ripgrep).",
    );
  const made: string[] = [];
  const root = mkdtempSync(join(tmpdir(), 'sim-real-'));
  made.push(root);
  const home = join(root, 'home');
  mkdirSync(home);
  const directory = options.dir ? resolve(options.dir) : join(root, 'workspace');
  mkdirSync(directory, { recursive: true });
  const git = (...args: string[]) =>
    spawnSync('git', args, { cwd: directory, env: { ...process.env, HOME: home }, encoding: 'utf8' });
  if (git('rev-parse', '--git-dir').status !== 0) {
    if (git('init', '-q').status !== 0) {
      for (const path of made) rmSync(path, { recursive: true, force: true });
      throw new RealRuntimeError(`git could not make a repository in ${directory}: is git installed?`);
    }
    git('-c', 'user.email=sim@example.invalid', '-c', 'user.name=sim', 'commit', '-q', '--allow-empty', '-m', 'init');
  }

  let model: ScriptedModel;
  try {
    model = await startScriptedModel({
      scenario: options.scenario,
      match: options.match,
      pace: options.pace,
      record: options.record,
      replay: options.replay,
    });
  } catch (error) {
    for (const path of made) rmSync(path, { recursive: true, force: true });
    throw error;
  }
  // The runtime reads its user's config from HOME (the environment's config variables are not read by serve),
  // and the workspace stays the user's: nothing is written into it.
  const config = join(home, '.config', 'opencode');
  mkdirSync(config, { recursive: true });
  writeFileSync(
    join(config, 'opencode.json'),
    `${JSON.stringify(runtimeConfig(model.config(), model.scenario), null, 2)}\n`,
  );
  let child: ChildProcess | undefined;
  const cleanUp = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child?.once('exit', done));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child?.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    await model.close();
    for (const path of made) rmSync(path, { recursive: true, force: true });
  };
  try {
    const { user, password } = credentialsOf(options.auth);
    const env: NodeJS.ProcessEnv = {
      ...withoutXdg(process.env),
      HOME: home,
      OPENCODE_DISABLE_MODELS_FETCH: 'true',
      OPENCODE_DISABLE_AUTOUPDATE: 'true',
      OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
      OPENCODE_DISABLE_SHARE: 'true',
      OPENCODE_SERVER_PASSWORD: password ?? '',
    };
    if (user !== undefined) env.OPENCODE_SERVER_USERNAME = user;
    // `serve --port 0` listens on its default port: a free one is found here instead.
    const port = options.port === 0 ? await freePort(options.host ?? '127.0.0.1') : (options.port ?? 4096);
    const host = options.host ?? '127.0.0.1';
    let output = '';
    const started = spawn(binary, ['serve', '--port', String(port), '--hostname', host, '--pure'], {
      cwd: directory,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4000);
    };
    started.stdout?.on('data', keep);
    started.stderr?.on('data', keep);
    const listening = await new Promise<string>((done, fail) => {
      const timer = setTimeout(
        () =>
          fail(
            new RealRuntimeError(
              `opencode did not start within ${(options.startTimeoutMs ?? 30_000) / 1000} s:\n${output}`,
            ),
          ),
        options.startTimeoutMs ?? 30_000,
      );
      const look = () => {
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          done(match[1]);
        }
      };
      started.stdout?.on('data', look);
      started.stderr?.on('data', look);
      started.once('exit', (code) => {
        clearTimeout(timer);
        fail(new RealRuntimeError(`opencode exited (${String(code)}) before it listened:\n${output.trim()}`));
      });
    });
    const url = listening.replace(/\/$/, '');
    await answering(url, user ?? 'opencode', password, Date.now() + (options.startTimeoutMs ?? 30_000));
    return { url, directory, model, stop: cleanUp };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/**
 * Waits until the runtime answers its health check. It accepts connections while it starts, and a request
 * accepted then may never be answered, so each probe gives up after a second and the next one asks again.
 */
async function answering(url: string, user: string, password: string | undefined, deadline: number): Promise<void> {
  const headers: Record<string, string> =
    password === undefined ? {} : { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
  for (;;) {
    try {
      const res = await fetch(`${url}/api/health`, { headers, signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not answering yet
    }
    if (Date.now() > deadline) throw new RealRuntimeError(`opencode listened on ${url} but did not answer /api/health`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function freePort(host: string): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** `PASS` is user opencode's password, `USER:PASS` names the user too (as the simulator's --auth reads it). */
function credentialsOf(auth: string | undefined): { user?: string; password?: string } {
  if (auth === undefined) return {};
  const colon = auth.indexOf(':');
  return colon < 0 ? { password: auth } : { user: auth.slice(0, colon), password: auth.slice(colon + 1) };
}

/** The user's XDG folders would give the runtime their config and data; the throwaway HOME gives it none. */
function withoutXdg(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env))
    if (!key.startsWith('XDG_') && !key.startsWith('OPENCODE_')) out[key] = value;
  return out;
}
