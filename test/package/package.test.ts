/**
 * The package as a consumer gets it: `npm pack`, install the tarball into an empty project, type-check and run
 * a small consumer against what was installed, and run the installed bin.
 *
 * The tarball is the one every test that installs the package shares (`packedPackage()`): packed from a copy of
 * this checkout's sources without dist/, which proves it is built from the sources, not from whatever an older
 * build left behind.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryDeclarations, reachableDeclarations } from '../../scripts/prune-declarations.mjs';
import { INSTALL_COMMAND } from '../support/doc-blocks.js';
import {
  PACK_TIMEOUT,
  packedPackage,
  packResult,
  run as runCommand,
  type PackResult,
  type Run,
} from '../support/packed-package.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
const repoPackage = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  engines: { node: string };
};
const typesNodeVersion = (
  JSON.parse(readFileSync(join(REPO, 'node_modules/@types/node/package.json'), 'utf8')) as { version: string }
).version;

/** A command's end; the npm commands act on the temp directories only (`cleanEnv`). */
function run(command: string, args: string[], cwd: string, timeout: number): Promise<Run> {
  return runCommand(command, args, { cwd, timeout });
}

function expectSuccess(result: Run, what: string): void {
  expect(result.code, `${what} failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
}

interface Manifest {
  private?: boolean;
  engines?: { node?: string };
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
}

/** Every file path in an exports map, whatever its nesting of conditions. */
function targets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports && typeof exports === 'object') return Object.values(exports).flatMap(targets);
  return [];
}

const CONSUMER = `import assert from 'node:assert/strict';
import { startSimulator, SimulatorError } from 'session-agent-sim';

const sim = await startSimulator({ scenario: 'forms-settling' });
// The installed declarations type the handle: were it \`any\`, this directive would be unused, an error.
// @ts-expect-error a url is a string
void ((): number => sim.url);
try {
  const response = await fetch(\`\${sim.url}/api/form/request\`);
  assert.equal(response.status, 200);
  const body = (await response.json()) as { data?: unknown };
  assert.ok(Array.isArray(body.data), 'the answer has a data array');
  console.log(\`pending forms: \${body.data.length}\`);
  const worker = sim.partition('worker-1');
  await worker.clock.advance('10s');
  // Every kind's part of the state is typed in the installed declarations (\`forms\` is the form kind's).
  const state = await worker.state();
  assert.ok(state.scenario !== null && state.forms.some((form) => form.state === 'pending'));
  const id = await worker.rules.add({ when: { operation: 'v2.plugin.list' }, then: { error: { _tag: 'UnauthorizedError', message: 'Authentication required' } } });
  assert.equal((await fetch(\`\${worker.url}/api/plugin\`)).status, 401);
  assert.equal((await fetch(\`\${sim.url}/api/plugin\`)).status, 200);
  const refused = await worker.rules.add({ when: { operation: 'v2.nope' }, then: { status: 200 } }).catch((e: unknown) => e);
  assert.ok(refused instanceof SimulatorError);
  const coverage = await sim.coverage({ all: true });
  console.log(\`rule \${id}; \${coverage.summary.line}\`);
} finally {
  await sim.close();
}
`;

/**
 * What docs/getting-started.md says the package is: "about 1.1 MB packed, 4.5 MB unpacked, 380 files", and
 * with its dependencies "about 200 packages".
 */
function statedFigures(): { packed: number; unpacked: number; files: number; packages: number } {
  const page = readFileSync(join(REPO, 'docs/getting-started.md'), 'utf8');
  const tarball = /about ([\d.]+) MB packed, ([\d.]+) MB unpacked, (\d+) files/.exec(page);
  const packages = /about (\d+) packages/.exec(page);
  if (!tarball || !packages)
    throw new Error(
      'docs/getting-started.md no longer states "about X MB packed, Y MB unpacked, N files" and "about N packages"',
    );
  return {
    packed: Number(tarball[1]) * 1e6,
    unpacked: Number(tarball[2]) * 1e6,
    files: Number(tarball[3]),
    packages: Number(packages[1]),
  };
}

describe('the packed package, installed into an empty project', () => {
  let work = '';
  let project = '';
  let installWarnings = '';
  let packed: PackResult;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'sim-package-'));
    const tarball = await packedPackage();
    packed = packResult(tarball);
    // Laid out as docs/getting-started.md has the reader do it: the tarball in the checkout, the project beside it
    const checkout = join(work, repoPackage.name);
    mkdirSync(checkout);
    copyFileSync(tarball, join(checkout, basename(tarball)));

    project = join(work, 'my-app');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // The documents' command; @types/node as well: the consumer imports node:assert, as any Node test would
    // (same version as here, so cached).
    const [npm = 'npm', ...documented] = INSTALL_COMMAND.split(' ');
    const install = await run(
      npm,
      [...documented, `@types/node@${typesNodeVersion}`, '--no-audit', '--no-fund', '--prefer-offline'],
      project,
      60_000,
    );
    expectSuccess(install, `${INSTALL_COMMAND} (the documents' command)`);
    installWarnings = install.stderr;
  }, PACK_TIMEOUT + 60_000);

  // Removing an installed project's node_modules takes over the default ten seconds on a busy machine.
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('packs the compiled code, the spec, the scenarios, the bin, the inspector and the README, and nothing else', () => {
    const paths = packed.files.map((file) => file.path);
    for (const path of paths)
      expect(path).toMatch(/^(dist\/|spec\/|scenarios\/|bin\/|inspector\/|README\.md$|package\.json$)/);
    expect(paths.filter((path) => /\.test\.|^dist\/.*\/test\//.test(path))).toEqual([]);
    // Read by nothing at run time: the real server's kept document (spec:import's), the browser build's
    // sources (bundled into dist/browser/msw.js), the start-up cache warmer (prepare's).
    expect(paths.filter((path) => /^spec\/real-server\/|^dist\/browser\/(?!msw\.js$)|warm-cache/.test(path))).toEqual(
      [],
    );
    expect(paths).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        'dist/cli.js',
        'bin/session-agent-sim.js',
        'spec/session-agent.openapi.yaml',
        'scenarios/scenario.schema.json',
        'scenarios/forms-settling.yaml',
        'inspector/index.html',
        'README.md',
      ]),
    );
    expect(packed.filename).toBe(`${repoPackage.name}-${repoPackage.version}.tgz`);
  });

  it('is publishable, and every file its package.json names is in it', () => {
    const installed = join(project, 'node_modules/session-agent-sim');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Manifest;
    expect(manifest.private).toBeUndefined();
    // The supported lines, each tested by CI (.ci/run reads them from here)
    expect(manifest.engines?.node).toBe(repoPackage.engines.node);
    // TypeScript takes the first condition that matches: "types" must come before "import"
    expect(Object.keys(manifest.exports?.['.'] ?? {})[0]).toBe('types');
    // A wrong "types" path would go unnoticed by tsc (it falls back to the .d.ts beside the "import" file)
    const named = [manifest.main, manifest.types, ...Object.values(manifest.bin ?? {}), ...targets(manifest.exports)];
    expect(named.length).toBeGreaterThan(4);
    for (const path of named) expect(existsSync(join(installed, path ?? 'missing')), path).toBe(true);
  });

  it('carries the declarations its entry points reach, every one they name, and no other', () => {
    const installed = join(project, 'node_modules/session-agent-sim');
    const { files, missing } = reachableDeclarations(entryDeclarations(installed));
    expect(missing).toEqual([]);
    const carried = readdirSync(installed, { recursive: true })
      .map(String)
      .filter((path) => path.endsWith('.d.ts') && !path.startsWith('node_modules/'))
      .map((path) => join(installed, path));
    expect(carried.filter((path) => !files.has(path)).map((path) => path.slice(installed.length + 1))).toEqual([]);
    expect(files.size).toBeGreaterThan(20);
  });

  it('is as big as docs/getting-started.md says, within a tenth', () => {
    const stated = statedFigures();
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    // The package and its dependencies: @types/node and its undici-types are the test's own
    const installed = Object.keys(lock.packages).filter(
      (path) => path.startsWith('node_modules/') && !/^node_modules\/(@types\/node|undici-types)$/.test(path),
    );
    const actual = {
      packed: packed.size,
      unpacked: packed.unpackedSize,
      files: packed.entryCount,
      packages: installed.length,
    };
    const shown = `${(actual.packed / 1e6).toFixed(2)} MB packed, ${(actual.unpacked / 1e6).toFixed(2)} MB unpacked, ${actual.files} files; ${actual.packages} packages`;
    for (const key of ['packed', 'unpacked', 'files', 'packages'] as const)
      expect(Math.abs(actual[key] - stated[key]) / stated[key], `${key}: ${shown}`).toBeLessThanOrEqual(0.1);
  });

  it('installs without the tests, the sources or any dev dependency', () => {
    const installed = join(project, 'node_modules/session-agent-sim');
    for (const folder of ['test', 'bench', 'src', 'recordings'])
      expect(existsSync(join(installed, folder)), folder).toBe(false);
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    const names = Object.keys(lock.packages).map((path) => path.replace(/^.*node_modules\//, ''));
    for (const dev of ['tsx', 'esbuild', 'opencode-linux-x64', 'typescript', 'vitest', 'nock'])
      expect(names, dev).not.toContain(dev);
    expect(existsSync(join(project, 'node_modules/tsx'))).toBe(false);
    expect(existsSync(join(project, 'node_modules/opencode-linux-x64'))).toBe(false);
  });

  it('installs on a supported Node without an engine warning, its dependencies included', () => {
    // Prism's parts from 5.15 on claim Node >= 24.14 (same code, engines raised): package.json pins 5.8.0's core
    expect(installWarnings).not.toMatch(/EBADENGINE/);
    const core = JSON.parse(readFileSync(join(project, 'node_modules/@stoplight/prism-core/package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(core.engines.node).toBe('>=18.20.1');
  });

  it('type-checks a consumer against the installed declarations', async () => {
    writeFileSync(join(project, 'consumer.ts'), CONSUMER);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022'],
          types: ['node'],
          // No skipLibCheck: the main entry's declarations must stand on their own (Express's and Prism's
          // types stay behind the ./app subpath).
          noEmitOnError: true,
          outDir: 'out',
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], project, 60_000);
    expectSuccess(tsc, 'tsc');
    expect(existsSync(join(project, 'out/consumer.js'))).toBe(true);
  }, 70_000);

  it('runs the same consumer as JavaScript', async () => {
    const node = await run(process.execPath, ['out/consumer.js'], project, 30_000);
    expectSuccess(node, 'node out/consumer.js');
    expect(node.stdout).toMatch(/^pending forms: \d+$/m);
    expect(node.stdout).toMatch(/^rule rul_1; operations 2\/91, /m);
  }, 40_000);

  it('runs the installed bin through npx', async () => {
    // --no: never fetch it from the registry; --: the flags are the bin's, not npx's
    const help = await run('npx', ['--no', '--', 'session-agent-sim', '--help'], project, 20_000);
    expectSuccess(help, 'npx session-agent-sim --help');
    expect(help.stdout).toContain('Usage: session-agent-sim');
    expect(help.stdout).toContain('mock');
    expect(help.stderr).not.toContain('tsx');
    const version = await run('npx', ['--no', '--', 'session-agent-sim', '--version'], project, 20_000);
    expectSuccess(version, 'npx session-agent-sim --version');
    expect(version.stdout.trim()).toBe(repoPackage.version);
  }, 50_000);
});
