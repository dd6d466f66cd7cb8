/**
 * The shell blocks of the README, the getting-started guide and the catalogue of errors, run as a reader runs
 * them, with what they print compared where the documents show it (conventions: test/support/doc-blocks.ts). The README runs from a
 * copy of this checkout (its commands say `node bin/session-agent-sim.js`, `npm start`); the guide runs in a
 * project that has the package installed, linked to this checkout as `npm install` would place it.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { missingLine, runBlock, shellBlocks, type DocBlock } from '../support/doc-blocks.js';

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
function checkoutCopy(): string {
  const dir = join(scratch, 'checkout');
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

const documents: Array<{ file: string; cwd: () => string; quickStart: string }> = [
  { file: 'README.md', cwd: checkoutCopy, quickStart: 'node bin/session-agent-sim.js mock' },
  {
    file: 'docs/getting-started.md',
    cwd: () => consumerProject('my-app'),
    quickStart: 'npx --no session-agent-sim mock',
  },
  { file: 'docs/errors.md', cwd: () => consumerProject('errors'), quickStart: 'npx --no session-agent-sim mock' },
];

for (const { file, cwd, quickStart } of documents) {
  describe(file, () => {
    const blocks: DocBlock[] = shellBlocks(readFileSync(join(REPO, file), 'utf8'), file);
    let dir: string | undefined;

    it('has shell blocks to run', () => {
      expect(blocks.length).toBeGreaterThan(2);
    });

    for (const block of blocks) {
      const shown = block.commands.reduce((n, c) => n + c.expected.length, 0);
      it(`block at line ${block.line}: ${block.commands.length} commands, ${shown} printed lines compared`, async () => {
        dir ??= cwd();
        const results = await runBlock(block, { cwd: dir, env, quickStart });
        for (const { command, output, skipped } of results) {
          if (skipped) continue;
          const where = `${file}:${command.line} ${command.text.split('\n')[0]}\nprinted:\n${output}`;
          const failures = output.split('\n').filter((line) => /^\[exit \d+\]$/.test(line));
          for (const failure of failures)
            expect(command.expected, `${where}\nexits non-zero, and the document does not show it`).toContain(failure);
          expect(missingLine(command.expected, output), where).toBeUndefined();
        }
      }, 90_000);
    }
  });
}
