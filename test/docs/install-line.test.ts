/**
 * One way to install the package in every document: the package is not on the npm registry, so a line like
 * `npm install -D session-agent-sim` fails with a 404. Every line of the README, of the pages under docs/ and
 * of the examples' READMEs that installs it is INSTALL_COMMAND (the tarball `npm pack` makes), maybe followed
 * by the other packages its page needs; test/package/package.test.ts runs that command.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INSTALL_COMMAND, notRunReason } from '../support/doc-blocks.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...readdirSync(join(REPO, 'examples'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `examples/${entry.name}/README.md`)
    .filter((file) => existsSync(join(REPO, file))),
];

/** Every place a document installs the package: in a shell block, or quoted in the prose. */
function installLines(text: string): string[] {
  return [...text.matchAll(/\bnpm (?:install|i|add)\b[^`\n]*?session-agent-sim[^`\n]*/g)].map((match) =>
    // An explaining comment after the command is not part of it.
    match[0].replace(/\s+#\s.*$/, '').trim(),
  );
}

describe('the install command in the documents', () => {
  it('finds the install lines it holds to the command (getting-started, tests, component tests)', () => {
    const found = DOCUMENTS.filter((file) => installLines(readFileSync(join(REPO, file), 'utf8')).length);
    expect(found).toEqual(
      expect.arrayContaining(['docs/getting-started.md', 'docs/tests.md', 'docs/component-tests-and-stories.md']),
    );
  });

  for (const file of DOCUMENTS)
    it(`${file}: every line that installs the package is the one command, plus packages from the registry`, () => {
      for (const line of installLines(readFileSync(join(REPO, file), 'utf8'))) {
        expect(line.startsWith(INSTALL_COMMAND), `${file}: ${line}`).toBe(true);
        // What follows are packages by name (vitest, msw@^3), never another path, URL or flag.
        for (const extra of line.slice(INSTALL_COMMAND.length).trim().split(/\s+/).filter(Boolean))
          expect(extra, `${file}: ${line}`).toMatch(/^(@[a-z0-9-]+\/)?[a-z0-9][a-z0-9.-]*(@[\w.^~<>=-]+)?$/);
      }
    });

  it('is left to the package test by the doc runner, which cannot install from a checkout next door', () => {
    expect(notRunReason(`${INSTALL_COMMAND} vitest`)).toMatch(/test\/package\/package\.test\.ts/);
  });
});
