/**
 * Where scenario definitions come from: a name in the scenarios folder, a path to a .yaml file, or (for test
 * authors who keep fixtures in code) an object. Definitions are immutable and shared by every partition
 * that serves them, so each file is loaded once per process.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SimScenarioNotFoundError } from '../errors.js';
import type { SpecIndex } from '../spec/openapi.js';
import type { ScenarioDefinition } from './definition.js';
import { loadScenarioFile, loadScenarioObject } from './load-scenario.js';

export const SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));

/** A scenario as a caller names it: its name, a path to its file, or the scenario itself. */
export type ScenarioSource = string | Record<string, unknown>;

export interface ScenarioLibrary {
  available(): string[];
  load(source: ScenarioSource): ScenarioDefinition;
}

/** A file name, or anything with a slash, is a path; anything else names a scenario in the folder. */
export function isScenarioPath(nameOrPath: string): boolean {
  return nameOrPath.endsWith('.yaml') || nameOrPath.endsWith('.yml') || nameOrPath.includes('/');
}

/** The scenario names a folder holds, sorted. */
export function scenarioNames(directory = SCENARIOS_DIR): string[] {
  return existsSync(directory)
    ? readdirSync(directory)
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => basename(f, '.yaml'))
        .sort()
    : [];
}

export function createScenarioLibrary(spec: SpecIndex, directory = SCENARIOS_DIR): ScenarioLibrary {
  const loaded = new Map<string, ScenarioDefinition>();
  const resolveFile = (nameOrPath: string): string => {
    if (isScenarioPath(nameOrPath)) return isAbsolute(nameOrPath) ? nameOrPath : resolve(nameOrPath);
    return join(directory, `${nameOrPath}.yaml`);
  };
  const available = () => scenarioNames(directory);
  return {
    available,
    load(source) {
      if (typeof source !== 'string') return loadScenarioObject(source, spec);
      const file = resolveFile(source);
      if (!existsSync(file)) throw new SimScenarioNotFoundError(source, available());
      // Keyed by the file's mtime and size: a file edited since (hot reload, a test rewriting it) loads afresh.
      const { mtimeMs, size } = statSync(file);
      const key = `${file}\0${mtimeMs}\0${size}`;
      let definition = loaded.get(key);
      if (!definition) {
        definition = loadScenarioFile(file, spec);
        for (const old of loaded.keys()) if (old.startsWith(`${file}\0`)) loaded.delete(old);
        loaded.set(key, definition);
      }
      return definition;
    },
  };
}
