/**
 * The package's version, wherever this module runs from: src/cli/ through tsx, dist/cli/ compiled, or an
 * installed package (<pkg>/dist/cli/). Walking up instead of a fixed relative path keeps it right if the
 * layout moves again.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function packageVersion(): string {
  for (let dir = new URL('./', import.meta.url); ; dir = new URL('../', dir)) {
    const version = versionIn(new URL('package.json', dir));
    if (version !== undefined) return version;
    // A package.json without a version (dist/'s {"type": "module"}, say) is not the package's: keep going.
    if (new URL('../', dir).href === dir.href) break;
  }
  throw new Error(`no package.json with a version above ${fileURLToPath(import.meta.url)}`);
}

function versionIn(file: URL): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const { version } = JSON.parse(text) as { version?: unknown };
  return typeof version === 'string' ? version : undefined;
}
