import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = new URL('../../scripts/check-cycles.mjs', import.meta.url).pathname;
const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cycles-'));
  trees.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(root: string): { status: number; output: string } {
  try {
    return { status: 0, output: execFileSync('node', [SCRIPT, '--root', root], { encoding: 'utf8', stdio: 'pipe' }) };
  } catch (error) {
    const failed = error as { status: number; stderr: string };
    return { status: failed.status, output: failed.stderr };
  }
}

describe('scripts/check-cycles.mjs', () => {
  it('passes a tree whose folders import one way, types included', () => {
    const root = tree({
      'a/one.ts':
        "import { two } from '../b/two.js';\nimport type { Two } from '../b/two.js';\nexport const one: Two = two;\n",
      'b/two.ts': 'export type Two = number;\nexport const two: Two = 2;\n',
    });
    expect(check(root)).toMatchObject({ status: 0, output: expect.stringContaining('No import cycles') });
  });

  it('passes files of one folder that import each other for types only', () => {
    const root = tree({
      'a/x.ts': "import { y } from './y.js';\nexport type X = number;\nexport const x = y;\n",
      'a/y.ts': "import type { X } from './x.js';\nexport const y: X = 1;\n",
    });
    expect(check(root)).toMatchObject({ status: 0, output: expect.stringContaining('No import cycles') });
  });

  it('fails on a type-only import back up between folders', () => {
    const root = tree({
      'a/one.ts': "import { two } from '../b/two.js';\nexport const one = two;\n",
      'b/two.ts': "import type { One } from '../a/types.js';\nexport const two = 2 as unknown as One;\n",
      'a/types.ts': 'export type One = number;\n',
    });
    expect(check(root)).toMatchObject({ status: 1, output: expect.stringContaining('between folders') });
  });

  it('counts a module augmentation as a tie to the folder it adds to', () => {
    const root = tree({
      'a/one.ts': "import { two } from '../b/two.js';\nexport interface Tables {}\nexport const one = two;\n",
      'b/two.ts':
        "export const two = 2;\ndeclare module '../a/one.js' {\n  interface Tables {\n    two: number;\n  }\n}\n",
    });
    expect(check(root)).toMatchObject({ status: 1, output: expect.stringContaining('between folders') });
  });

  it('fails on a cycle between files', () => {
    const root = tree({
      'x.ts': "import { y } from './y.js';\nexport const x = () => y;\n",
      'y.ts': "import { x } from './x.js';\nexport const y = () => x;\n",
    });
    expect(check(root)).toMatchObject({ status: 1, output: expect.stringContaining('between files: x.ts, y.ts') });
  });

  it('fails on folders tied both ways even when no file cycle exists', () => {
    const root = tree({
      'a/one.ts': "import { two } from '../b/two.js';\nexport const one = two;\n",
      'a/three.ts': 'export const three = 3;\n',
      'b/two.ts': "import { three } from '../a/three.js';\nexport const two = three;\n",
    });
    expect(check(root)).toMatchObject({ status: 1, output: expect.stringContaining('between folders') });
  });
});
