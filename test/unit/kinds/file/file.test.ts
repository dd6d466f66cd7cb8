/**
 * The file kind: the scenario's tree with its contents (given, generated from names, or a default project's),
 * read with the real server's content types, searched with a predictable ranking, and every path that is not
 * a file of the tree refused with a declared error.
 */
import { describe, expect, it } from 'vitest';
import { contentType, fileBytes } from '../../../../src/kinds/file/contents.js';
import { readFiles } from '../../../../src/kinds/file/file.js';
import { entriesBelow, findEntries, readLimit } from '../../../../src/kinds/file/find.js';
import { PROJECT, worldOf } from '../workspace/world.js';

const text = (bytes: Buffer) => bytes.toString('utf8');

describe('the scenario section', () => {
  it('keeps paths alone and files with contents or sizes in one list', () => {
    const files = readFiles([
      'src/',
      { path: 'README.md', content: '# Hi\n' },
      { path: 'logo.png', content: 'iVBORw0KGgo=', encoding: 'base64' },
      { path: 'big.log', size: 10 },
    ]);
    expect(files.tree['']).toEqual([
      { path: 'src/', type: 'directory' },
      { path: 'big.log', type: 'file' },
      { path: 'logo.png', type: 'file' },
      { path: 'README.md', type: 'file' },
    ]);
    expect(files.contents).toEqual({
      'README.md': { data: '# Hi\n', encoding: 'utf8' },
      'logo.png': { data: 'iVBORw0KGgo=', encoding: 'base64' },
    });
    expect(files.sizes).toEqual({ 'big.log': 10 });
  });

  it("gives a scenario without files a small TypeScript project's, some files with contents of their own", () => {
    const files = readFiles(undefined);
    expect(files.tree['']?.map((e) => e.path)).toEqual([
      '.git/',
      'src/',
      'test/',
      '.gitignore',
      'package.json',
      'README.md',
      'tsconfig.json',
    ]);
    expect(text(fileBytes(files, 'src/greet.ts', 'demo'))).toContain('export function greet(name: string)');
    expect(text(fileBytes(files, 'README.md', 'demo'))).toMatch(/^# demo\n/);
    expect(JSON.parse(text(fileBytes(files, 'package.json', 'demo')))).toMatchObject({
      name: 'demo',
      scripts: { test: 'vitest run' },
    });
  });

  it('is refused where a file with contents names a directory, or carries what the format does not know', async () => {
    await expect(worldOf({ files: [{ path: 'src/' }] })).rejects.toThrow(/files\[0\]/);
    await expect(worldOf({ files: [{ path: 'a.txt', content: 'x', mode: '0644' }] })).rejects.toThrow(/mode/);
  });
});

describe('contents', () => {
  const files = readFiles([
    'index.html',
    'vite.config.ts',
    'src/main.tsx',
    'src/components/UserAvatar.tsx',
    'src/api/client.ts',
    'tests/login.spec.ts',
    '.github/workflows/ci.yml',
    'public/favicon.svg',
    'public/hero.png',
    { path: 'data/dump.sql', size: 100_000 },
  ]);
  const read = (path: string) => text(fileBytes(files, path, 'acme-web'));

  it('are generated from names and the tree: components, modules, tests, CI, a Vite app', () => {
    expect(read('src/components/UserAvatar.tsx')).toContain('export function UserAvatar()');
    expect(read('src/components/UserAvatar.tsx')).toContain('className="user-avatar"');
    expect(read('src/api/client.ts')).toContain('export function client(): string');
    expect(read('tests/login.spec.ts')).toContain("describe('login'");
    expect(read('.github/workflows/ci.yml')).toContain('runs-on: ubuntu-latest');
    expect(read('src/main.tsx')).toContain("import { App } from './App';");
    expect(read('index.html')).toContain('<script type="module" src="/src/main.tsx"></script>');
    expect(read('vite.config.ts')).toContain('plugins: [react()]');
    expect(read('public/favicon.svg')).toMatch(/^<svg /);
  });

  it('are a real image for a .png, and exactly `size` bytes of text for a large file', () => {
    const png = fileBytes(files, 'public/hero.png', 'acme-web');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const dump = fileBytes(files, 'data/dump.sql', 'acme-web');
    expect(dump.length).toBe(100_000);
    expect(text(dump).split('\n')[1]).toBe('0000002  dump.sql: generated line');
  });

  it('are typed as the real server types them, by extension, whatever the case', () => {
    expect(contentType('README.md')).toBe('text/markdown');
    expect(contentType('docs/NOTES.MD')).toBe('text/markdown');
    expect(contentType('src/app.ts')).toBe('video/mp2t');
    expect(contentType('src/app.tsx')).toBe('application/octet-stream');
    expect(contentType('package.json')).toBe('application/json');
    expect(contentType('public/logo.png')).toBe('image/png');
    expect(contentType('.gitignore')).toBe('application/octet-stream');
    expect(contentType('Makefile')).toBe('application/octet-stream');
  });
});

describe('finding', () => {
  const tree = readFiles([
    '.git/HEAD',
    'src/settings/SettingsPage.tsx',
    'src/settings/index.ts',
    'src/index.ts',
    'docs/settings.md',
  ]).tree;

  it('searches below a directory, relative to it, never in .git/', () => {
    expect(
      entriesBelow(tree, 'src/')
        .map((e) => e.path)
        .sort(),
    ).toEqual(['index.ts', 'settings/', 'settings/SettingsPage.tsx', 'settings/index.ts']);
    expect(entriesBelow(tree, '').some((e) => e.path.startsWith('.git'))).toBe(false);
  });

  it('ranks equal, starts with, contains, path contains, letters in order; shorter first; drops the rest', () => {
    const paths = (query: string, type?: 'file' | 'directory', limit?: number) =>
      findEntries(entriesBelow(tree, ''), query, type, limit).map((e) => e.path);
    expect(paths('settings')).toEqual([
      'src/settings/',
      'docs/settings.md',
      'src/settings/SettingsPage.tsx',
      'src/settings/index.ts',
    ]);
    expect(paths('SETTINGS', 'file', 2)).toEqual(['docs/settings.md', 'src/settings/SettingsPage.tsx']);
    expect(paths('spage')).toEqual(['src/settings/SettingsPage.tsx']);
    expect(paths('zzz')).toEqual([]);
    expect(paths('', 'directory')).toEqual(['src/', 'docs/', 'src/settings/']);
  });

  it('reads limit as the real server does', () => {
    expect(readLimit(undefined)).toBeUndefined();
    expect(readLimit('3')).toBe(3);
    for (const [raw, message] of [
      ['abc', 'Expected an integer, got NaN'],
      ['1.5', 'Expected an integer, got 1.5'],
      ['0', 'Expected a value greater than 0, got 0'],
      ['-1', 'Expected a value greater than 0, got -1'],
    ]) {
      expect(() => readLimit(raw)).toThrow(`${message}\n  at ["limit"]`);
    }
  });
});

describe('the handlers', () => {
  it('read a file relative to the location, and refuse what is not a file of the tree', async () => {
    const world = await worldOf({ files: ['src/app.ts', { path: 'notes.txt', content: 'hello' }] });
    const read = (path: string, directory?: string) =>
      world.call('v2.fs.read', {
        pathParams: { '*': path },
        query: directory ? { location: { directory } } : {},
      });
    const notes = read('notes.txt');
    expect(notes).toMatchObject({ kind: 'raw', status: 200, headers: { 'content-type': 'text/plain' } });
    expect(notes?.raw?.toString()).toBe('hello');
    expect(read('app.ts', `${PROJECT.directory}/src`)?.raw?.toString()).toContain('export function app()');
    const refusal = (path: string, directory?: string) =>
      world
        .fail('v2.fs.read', { pathParams: { '*': path }, query: directory ? { location: { directory } } : {} })
        .toBody();
    expect(refusal('')).toEqual({
      _tag: 'InvalidRequestError',
      message: 'No file path after /api/fs/read/',
      kind: 'Params',
      field: 'path',
    });
    expect(refusal('src').message).toBe('Is a directory: src');
    expect(refusal('src/').message).toBe('Not a file: src/');
    expect(refusal('notes.txt/').message).toBe('Not a file: notes.txt/');
    expect(refusal('../etc/passwd').message).toBe('Path is outside the location: ../etc/passwd');
    expect(refusal('/etc/passwd').message).toBe('Path is outside the location: /etc/passwd');
    expect(refusal('notes.txt', '/srv/other').message).toBe('No such file: notes.txt');
    expect(refusal('app.ts').message).toBe('No such file: app.ts');
  });

  it('find nothing outside the project, and list the default tree when the scenario has none', async () => {
    const world = await worldOf({});
    const outside = world.call('v2.fs.find', { query: { query: '', location: { directory: '/srv/other' } } });
    expect((outside?.body as { data: unknown[] }).data).toEqual([]);
    const found = world.call('v2.fs.find', { query: { query: 'greet' } });
    expect((found?.body as { data: Array<{ path: string }> }).data.map((e) => e.path)).toEqual([
      'src/greet.ts',
      'test/greet.test.ts',
    ]);
  });
});
