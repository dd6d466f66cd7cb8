/**
 * The input schemas of the tools the real server offers its model (spec/tools.json, `npm run tools:import`),
 * by tool name. Read once, when a scenario's turns are first checked. The browser build has no files and
 * inlines them instead (scripts/build-browser.mjs); wherever the file cannot be read, no tool is known and
 * no input is checked, since refusing every scenario would be worse than checking none.
 */
import { readFileSync } from 'node:fs';
import { packagePath } from '../../files/package-path.js';

export type ToolSchema = Readonly<Record<string, unknown>>;

export const REAL_TOOLS_PATH = packagePath(import.meta.url, '../../../spec/tools.json');

let loaded: ReadonlyMap<string, ToolSchema> | undefined;

export function realTools(): ReadonlyMap<string, ToolSchema> {
  if (loaded) return loaded;
  try {
    const kept = JSON.parse(readFileSync(REAL_TOOLS_PATH, 'utf8')) as { tools?: Record<string, ToolSchema> };
    loaded = new Map(Object.entries(kept.tools ?? {}));
  } catch {
    loaded = new Map();
  }
  return loaded;
}
