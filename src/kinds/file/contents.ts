/**
 * What `GET /api/fs/read/*` answers for a file: the bytes the scenario gives, or contents made from the
 * file's name and its project's tree (a README titled with the project, a package.json whose scripts fit the
 * tree, a component named after its file), so a frontend opening any listed file sees something believable.
 * The content type is the real server's: by extension, `application/octet-stream` when it knows none.
 */
import { posix } from 'node:path';
import type { FilesDefinition, FileTree } from './types.js';

/** The real server's content types by extension (observed on 1.18.33, which types `.ts` as an MPEG stream). */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  ts: 'video/mp2t',
  mts: 'video/mp2t',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'application/node',
  jsx: 'text/jsx',
  css: 'text/css',
  scss: 'text/x-scss',
  html: 'text/html',
  svg: 'image/svg+xml',
  yml: 'text/yaml',
  yaml: 'text/yaml',
  json: 'application/json',
  map: 'application/json',
  txt: 'text/plain',
  log: 'text/plain',
  ini: 'text/plain',
  csv: 'text/csv',
  xml: 'application/xml',
  toml: 'application/toml',
  sh: 'application/x-sh',
  sql: 'application/sql',
  java: 'text/x-java-source',
  c: 'text/x-c',
  h: 'text/x-c',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/vnd.microsoft.icon',
  pdf: 'application/pdf',
  wasm: 'application/wasm',
  zip: 'application/zip',
  woff2: 'font/woff2',
  mp4: 'video/mp4',
};

export function contentType(path: string): string {
  const dot = posix.basename(path).lastIndexOf('.');
  const extension =
    dot > 0
      ? posix
          .basename(path)
          .slice(dot + 1)
          .toLowerCase()
      : '';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/** A 1×1 PNG: an image file without content still opens as an image. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** The bytes of a file of the tree (`path` relative to the project), given or generated. */
export function fileBytes(files: FilesDefinition, path: string, projectName: string): Buffer {
  const given = files.contents[path];
  if (given) return Buffer.from(given.data, given.encoding === 'base64' ? 'base64' : 'utf8');
  const size = files.sizes[path];
  if (size !== undefined) return filler(path, size);
  if (posix.extname(path).toLowerCase() === '.png') return Buffer.from(PIXEL_PNG, 'base64');
  return Buffer.from(generated(path, projectName, allFiles(files)), 'utf8');
}

/** Numbered lines up to exactly `size` bytes: a large file that is still text. */
function filler(path: string, size: number): Buffer {
  const line = (n: number) => `${String(n).padStart(7, '0')}  ${posix.basename(path)}: generated line\n`;
  const chunks: string[] = [];
  let length = 0;
  for (let n = 1; length < size; n++) {
    const next = line(n);
    chunks.push(next);
    length += next.length;
  }
  return Buffer.from(chunks.join('').slice(0, size), 'utf8');
}

/** Every file of a tree, found once per scenario (its tree is the same object for every read). */
const knownFiles = new WeakMap<FileTree, readonly string[]>();

function allFiles(files: FilesDefinition): readonly string[] {
  let found = knownFiles.get(files.tree);
  if (!found) {
    found = Object.values(files.tree).flatMap((entries) => entries.filter((e) => e.type === 'file').map((e) => e.path));
    knownFiles.set(files.tree, found);
  }
  return found;
}

const words = (stem: string) =>
  stem
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
const pascal = (stem: string) =>
  words(stem)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('') || 'Module';
const camel = (stem: string) => pascal(stem).replace(/^./, (c) => c.toLowerCase());
const kebab = (stem: string) => words(stem).join('-').toLowerCase();
const title = (stem: string) =>
  words(stem)
    .join(' ')
    .replace(/^./, (c) => c.toUpperCase());

function generated(path: string, project: string, tree: readonly string[]): string {
  const base = posix.basename(path);
  const extension = posix.extname(base).toLowerCase();
  const stem = base.slice(0, base.length - extension.length).replace(/\.(test|spec|config|d)$/, '');
  const react = tree.some((p) => /\.(tsx|jsx)$/.test(p));
  const vite = tree.some((p) => /^vite\.config\./.test(p));
  switch (base) {
    case 'README.md':
      return `# ${project}\n\nThe ${project} application.\n\n## Getting started\n\n\`\`\`sh\nnpm install\nnpm run dev\n\`\`\`\n`;
    case 'package.json':
      return `${JSON.stringify(packageJson(project, react, vite), null, 2)}\n`;
    case 'tsconfig.json':
      return `${JSON.stringify(TSCONFIG(react), null, 2)}\n`;
    case '.gitignore':
      return 'node_modules/\ndist/\n.env\n';
    case 'index.html':
      return `<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <title>${project}</title>\n  </head>\n  <body>\n    <div id="root"></div>\n${tree.includes('src/main.tsx') ? '    <script type="module" src="/src/main.tsx"></script>\n' : ''}  </body>\n</html>\n`;
  }
  if (/^vite\.config\.[jt]s$/.test(base))
    return `import { defineConfig } from 'vite';\n${react ? "import react from '@vitejs/plugin-react';\n" : ''}\nexport default defineConfig({\n  plugins: [${react ? 'react()' : ''}],\n});\n`;
  if (/\.(test|spec)\.[jt]sx?$/.test(base))
    return `import { describe, expect, it } from 'vitest';\n\ndescribe('${stem}', () => {\n  it('works', () => {\n    expect(true).toBe(true);\n  });\n});\n`;
  if (base === 'main.tsx' && react)
    return `import { createRoot } from 'react-dom/client';\nimport { App } from './App';\n\ncreateRoot(document.getElementById('root')!).render(<App />);\n`;
  if (path.startsWith('.github/workflows/') && (extension === '.yml' || extension === '.yaml'))
    return `name: ${stem}\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with: { node-version: 22 }\n      - run: npm ci\n      - run: npm test\n`;
  switch (extension) {
    case '.tsx':
    case '.jsx':
      return `export function ${pascal(stem)}() {\n  return <section className="${kebab(stem)}">${title(stem)}</section>;\n}\n`;
    case '.ts':
    case '.js':
    case '.mjs':
      return `/** ${title(stem)}. */\nexport function ${camel(stem)}(): string {\n  return '${kebab(stem)}';\n}\n`;
    case '.md':
      return `# ${title(stem)}\n`;
    case '.json':
      return '{}\n';
    case '.yml':
    case '.yaml':
      return `# ${title(stem)}\n`;
    case '.css':
      return `.${kebab(stem)} {\n  margin: 0;\n}\n`;
    case '.svg':
      return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#4f46e5"/></svg>\n';
    case '.html':
      return `<!doctype html>\n<title>${title(stem)}</title>\n`;
    case '.txt':
      return `${title(stem)}\n`;
    default:
      return '';
  }
}

function packageJson(project: string, react: boolean, vite: boolean) {
  return {
    name: project,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: vite
      ? { dev: 'vite', build: 'tsc && vite build', test: 'vitest run' }
      : { dev: 'tsx watch src/index.ts', build: 'tsc', test: 'vitest run' },
    ...(react ? { dependencies: { react: '^19.0.0', 'react-dom': '^19.0.0' } } : {}),
    devDependencies: { typescript: '^5.6.0', vitest: '^3.0.0', ...(vite ? { vite: '^6.0.0' } : { tsx: '^4.19.0' }) },
  };
}

const TSCONFIG = (react: boolean) => ({
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    strict: true,
    ...(react ? { jsx: 'react-jsx' } : {}),
    outDir: 'dist',
  },
  include: ['src'],
});
