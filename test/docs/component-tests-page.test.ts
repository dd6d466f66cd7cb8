/**
 * docs/component-tests-and-stories.md (and the README's block on it) shows lines of the example projects,
 * which `npm test` runs (test/examples): each TypeScript block marked `<!-- from FILE -->` must be in that file
 * as it stands, so the page cannot drift from code that is executed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = readFileSync(`${REPO}docs/component-tests-and-stories.md`, 'utf8');
const README = readFileSync(`${REPO}README.md`, 'utf8');
const BLOCK = /<!-- from (\S+) -->\n```ts\n([\s\S]*?)```/g;

function expectInTheirFiles(blocks: RegExpMatchArray[]): void {
  for (const [, file, code] of blocks) {
    const source = readFileSync(`${REPO}${file}`, 'utf8');
    expect(source, `${file} has the block`).toContain((code as string).trimEnd());
  }
}

it('shows only lines the examples have, and every TypeScript block says where from', () => {
  const blocks = [...PAGE.matchAll(BLOCK)];
  expect(blocks.length).toBeGreaterThanOrEqual(3);
  expect(blocks.length).toBe(PAGE.split('```ts').length - 1);
  expectInTheirFiles(blocks);
});

it('shows in the README the lines the component-test example has', () => {
  const blocks = [...README.matchAll(BLOCK)];
  expect(blocks.map(([, file]) => file)).toContain('examples/component-test/src/forms-panel.test.ts');
  expectInTheirFiles(blocks);
});
