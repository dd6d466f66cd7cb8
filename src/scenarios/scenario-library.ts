/**
 * Where scenario definitions come from: a name in the scenarios folder, a path to a .yaml file, or (for test
 * authors who keep fixtures in code) an object. Definitions are immutable and shared by every partition
 * that serves them, so each file is loaded once per process.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { SimScenarioError, SimScenarioNotFoundError } from '../errors/errors.js';
import type { SpecIndex } from '../openapi/openapi.js';
import { describeProblem, ScenarioError, type ScenarioDefinition } from './definition.js';
import { loadScenarioFile, loadScenarioObject, parseScenario } from './load-scenario.js';
import { packagePath } from '../files/package-path.js';

export const SCENARIOS_DIR = packagePath(import.meta.url, '../../scenarios/');

/** A scenario as a caller names it: its name, a path to its file, or the scenario itself. */
export type ScenarioSource = string | Record<string, unknown>;

/**
 * A library's loads refuse with `SimScenarioError` (a SimulatorError, its problems one line each), whoever
 * asked: a caller of the package, or the control API answering it.
 */
export interface ScenarioLibrary {
  available(): string[];
  /** A name, a path or an object: for whoever started the simulator (its paths are theirs to choose). */
  load(source: ScenarioSource): ScenarioDefinition;
  /**
   * For what arrives over HTTP: a name of the scenarios folder only, never a path, so a request (a web page
   * on a developer's machine, anyone on the network) cannot make the simulator read a file of its choosing.
   */
  loadNamed(name: string): ScenarioDefinition;
  /** A scenario's YAML text; `file` only names it in problems (a handle sends the file it read). */
  loadText(text: string, file: string): ScenarioDefinition;
}

/** What a scenario name can be: a file name in the folder without its `.yaml`, and nothing a path is made of. */
const SCENARIO_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

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
  const library: ScenarioLibrary = {
    available,
    loadNamed(name) {
      if (!SCENARIO_NAME.test(name) || name.endsWith('.yaml') || name.endsWith('.yml'))
        throw new SimScenarioNotFoundError(
          name,
          available(),
          'over HTTP a scenario is a name from the list, or its YAML text as {"yaml": "…"}',
        );
      // Over HTTP the answer does not show the simulator's folders to whoever asked.
      return load(name, false);
    },
    loadText: (text, file) => refused(() => parseScenario(text, file, spec)),
    load: (source) => load(source, true),
  };
  const load = (source: ScenarioSource, showFolders: boolean): ScenarioDefinition => {
    if (typeof source !== 'string') return refused(() => loadScenarioObject(source, spec));
    const file = resolveFile(source);
    if (!existsSync(file)) {
      // A path is read from the working directory, which may not be the one the caller thought.
      const folder = isScenarioPath(source) ? dirname(file) : directory;
      throw new SimScenarioNotFoundError(source, available(), undefined, showFolders ? [folder] : []);
    }
    // Keyed by the file's mtime and size: a file edited since (hot reload, a test rewriting it) loads afresh.
    const { mtimeMs, size } = statSync(file);
    const key = `${file}\0${mtimeMs}\0${size}`;
    let definition = loaded.get(key);
    if (!definition) {
      definition = refused(() => loadScenarioFile(file, spec));
      for (const old of loaded.keys()) if (old.startsWith(`${file}\0`)) loaded.delete(old);
      loaded.set(key, definition);
    }
    return definition;
  };
  return library;
}

/** A scenario that does not load, as the SimulatorError the package refuses with; its places stay its cause's. */
export function refused(load: () => ScenarioDefinition): ScenarioDefinition {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    throw Object.assign(new SimScenarioError(error.problems.map(describeProblem)), { cause: error });
  }
}
