/**
 * The YAML library, loaded on first use: a start from the caches parses no YAML at all, and loading the
 * library up front cost a tenth of start-up.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

const require = createRequire(import.meta.url);
let loaded: typeof Yaml | undefined;

export function yaml(): typeof Yaml {
  return (loaded ??= require('yaml') as typeof Yaml);
}
