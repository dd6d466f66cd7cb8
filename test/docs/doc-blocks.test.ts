/**
 * The shell blocks of the README and of every page under docs/, run as a reader runs them, with what they
 * print compared where the documents show it (conventions: test/support/doc-blocks.ts). The README and most
 * pages run from a copy of this checkout (their commands say `node bin/session-agent-sim.js`, `npm start`);
 * the getting-started guide and the catalogue of errors run in a project that has the package installed,
 * linked to this checkout as `npm install` would place it.
 *
 * Each block runs with servers of its own. The README's blocks must also hold as a reader pastes them: each
 * alone, in a checkout of its own; and in order, those that use the quick start's server all sharing one, as
 * the `npm start` a reader leaves running (a block that changed what a later one prints would fail there).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  missingLine,
  runBlock,
  shellBlocks,
  startQuickStart,
  usesQuickStart,
  type CommandResult,
  type DocBlock,
} from '../support/doc-blocks.js';
import { noRealRuntime, skippedWhen } from '../support/environment.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'sim-docs-'));
/** What npm adds to the environment names this checkout; the blocks must act on their own directories. */
const env = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|init_cwd$|vitest|test$|node_env$)/i.test(name)),
  ),
  NO_COLOR: '1',
};

/** The checkout as a reader has it, where files the README's commands write (scenarios, recordings) stay out of this one. */
function checkoutCopy(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  for (const entry of readdirSync(REPO)) {
    if (entry === '.git') continue;
    if (entry === 'scenarios' || entry === 'recordings')
      cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
    else symlinkSync(join(REPO, entry), join(dir, entry));
  }
  return dir;
}

/** A project after `npm install -D session-agent-sim vitest` (the package test installs the real tarball). */
function consumerProject(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      { name, private: true, type: 'module', devDependencies: { 'session-agent-sim': '*', vitest: '*' } },
      null,
      2,
    ),
  );
  symlinkSync(REPO, join(dir, 'node_modules/session-agent-sim'));
  symlinkSync(join(REPO, 'node_modules/vitest'), join(dir, 'node_modules/vitest'));
  symlinkSync(join(REPO, 'bin/session-agent-sim.js'), join(dir, 'node_modules/.bin/session-agent-sim'));
  symlinkSync(join(REPO, 'node_modules/vitest/vitest.mjs'), join(dir, 'node_modules/.bin/vitest'));
  return dir;
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The pages written for a project that installed the package; every other one is read in a checkout. */
const IN_A_PROJECT: Record<string, string> = { 'getting-started.md': 'my-app', 'errors.md': 'errors' };
/** The documents whose blocks must hold each alone and in order on one server, as said at the top. */
const AS_PASTED = new Set(['README.md']);
/** The documents that are mostly blocks to run: a refactoring that lost them would fail here. */
const MOSTLY_BLOCKS = new Set(['README.md', 'docs/getting-started.md', 'docs/errors.md', 'docs/scenarios.md']);

const documents: Array<{ file: string; cwd: (name?: string) => string; quickStart: string }> = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
].map((file) => {
  const page = file.replace(/^docs\//, '');
  const project = IN_A_PROJECT[page];
  return project
    ? { file, cwd: () => consumerProject(project), quickStart: 'npx --no session-agent-sim mock' }
    : {
        file,
        cwd: (name = '') => checkoutCopy(`checkout-${page.replace(/\.md$/, '')}${name}`),
        quickStart: 'node bin/session-agent-sim.js mock',
      };
});

/** Whether a block starts the real runtime (opencode serve), which runs where the real-server tests do. */
const startsReal = (block: DocBlock) => block.commands.some((c) => /session-agent-sim(\.js)? real\b/.test(c.text));
const blocksOf = (file: string) => shellBlocks(readFileSync(join(REPO, file), 'utf8'), file);
// The real runtime's start-up misses its 30 s under the load of the other documents running beside it: the
// documents that start it come last, alone.
const needsReal = (file: string) => blocksOf(file).some(startsReal);
documents.sort((a, b) => Number(needsReal(a.file)) - Number(needsReal(b.file)));

for (const { file, cwd, quickStart } of documents) {
  const blocks: DocBlock[] = blocksOf(file);
  // A page of prose and TypeScript alone has nothing to run here (its examples are files under examples/).
  if (blocks.length === 0 && !MOSTLY_BLOCKS.has(file)) continue;
  // Documents run side by side, each in a directory and on ports of its own; a document's blocks run in
  // order, since a block may use what the one above it wrote. Their time is mostly waiting on the processes
  // they start, so the worker's core is not the limit.
  (blocks.some(startsReal) ? describe : describe.concurrent)(file, () => {
    let dir: string | undefined;

    if (MOSTLY_BLOCKS.has(file))
      it.sequential('has shell blocks to run', () => {
        expect(blocks.length).toBeGreaterThan(2);
      });

    for (const block of blocks) {
      const shown = block.commands.reduce((n, c) => n + c.expected.length, 0);
      // A block that starts the real runtime runs where the real-server tests do.
      const real = startsReal(block);
      it.sequential(
        `block at line ${block.line}: ${block.commands.length} commands, ${shown} printed lines compared`,
        { ...skippedWhen(real ? noRealRuntime() : undefined), timeout: 90_000 },
        async () => {
          // A block of a page as pasted runs alone: no file an earlier block wrote is there.
          const here = AS_PASTED.has(file) ? cwd(`-${block.line}`) : (dir ??= cwd());
          expectAsShown(file, await runBlock(block, { cwd: here, env, quickStart }));
        },
      );
    }
  });

  const sharing = blocks.filter(usesQuickStart);
  if (AS_PASTED.has(file) && sharing.length)
    describe.concurrent(`${file}, in order on one quick start's server`, () => {
      let dir = '';
      let server: { port: number; stop(): void } | undefined;
      beforeAll(async () => {
        dir = cwd('-in-order');
        server = await startQuickStart(quickStart, { cwd: dir, env });
      }, 40_000);
      afterAll(() => server?.stop());

      for (const block of sharing)
        it.sequential(
          `block at line ${block.line}, after those above it`,
          async () => {
            expectAsShown(file, await runBlock(block, { cwd: dir, env, quickStart, quickStartPort: server?.port }));
          },
          90_000,
        );
    });
}

/** Each command printed what the document shows under it, and failed only where the document shows it. */
function expectAsShown(file: string, results: CommandResult[]): void {
  for (const { command, output, skipped } of results) {
    if (skipped) continue;
    const where = `${file}:${command.line} ${command.text.split('\n')[0]}\nprinted:\n${output}`;
    const failures = output.split('\n').filter((line) => /^\[exit \d+\]$/.test(line));
    for (const failure of failures)
      expect(command.expected, `${where}\nexits non-zero, and the document does not show it`).toContain(failure);
    expect(missingLine(command.expected, output), where).toBeUndefined();
  }
}
