/**
 * The file tree of a scenario that declares none: a project always has files, so a small TypeScript package
 * stands in, a few of its files with contents of their own (the rest are generated from their names).
 */
import type { FileContent } from './types.js';

const text = (data: string): FileContent => ({ data, encoding: 'utf8' });

export const DEFAULT_PATHS = [
  '.git/',
  '.gitignore',
  'README.md',
  'package.json',
  'tsconfig.json',
  'src/index.ts',
  'src/greet.ts',
  'test/greet.test.ts',
] as const;

export const DEFAULT_CONTENTS: Readonly<Record<string, FileContent>> = {
  'src/index.ts': text("import { greet } from './greet.js';\n\nconsole.log(greet(process.argv[2] ?? 'world'));\n"),
  'src/greet.ts': text(
    '/** A greeting for someone, by name. */\nexport function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
  ),
  'test/greet.test.ts': text(
    "import { describe, expect, it } from 'vitest';\nimport { greet } from '../src/greet.js';\n\ndescribe('greet', () => {\n  it('greets by name', () => {\n    expect(greet('Ada')).toBe('Hello, Ada!');\n  });\n});\n",
  ),
};
