/**
 * A path of the package's own files, from the module asking: `packagePath(import.meta.url, '../../spec/x')`.
 * Not `new URL('../x', import.meta.url)`: bundlers (Vite, and so vitest, when the package is linked rather
 * than installed) rewrite that pattern into an asset URL of their dev server, which is no file.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packagePath(moduleUrl: string, relative: string): string {
  return join(dirname(fileURLToPath(moduleUrl)), relative);
}
