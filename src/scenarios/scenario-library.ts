/**
 * Holds the scenario being served: which one, its live world, and the clock it runs on. Switching or
 * resetting rebuilds the world from the immutable definition and puts the clock back to the start.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../state/clock.js';
import { SimScenarioNotFoundError } from '../errors.js';
import type { SpecIndex } from '../spec/openapi.js';
import type { ScenarioDefinition } from './definition.js';
import { loadScenarioFile } from './load-scenario.js';
import { createWorld, type World } from '../state/world.js';

export const SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));

export interface ScenarioHost {
  readonly world: World;
  available(): string[];
  /** Switches to a scenario by name (in the scenarios folder) or path, and resets. */
  use(nameOrPath: string): ScenarioDefinition;
  reset(): void;
}

export function createScenarioHost(spec: SpecIndex, clock: Clock, initial: string, directory = SCENARIOS_DIR): ScenarioHost {
  const loaded = new Map<string, ScenarioDefinition>();
  const resolveFile = (nameOrPath: string): string => {
    if (nameOrPath.endsWith('.yaml') || nameOrPath.endsWith('.yml') || nameOrPath.includes('/')) {
      return isAbsolute(nameOrPath) ? nameOrPath : resolve(nameOrPath);
    }
    return join(directory, `${nameOrPath}.yaml`);
  };
  const available = () =>
    existsSync(directory)
      ? readdirSync(directory)
          .filter((f) => f.endsWith('.yaml'))
          .map((f) => basename(f, '.yaml'))
          .sort()
      : [];
  const load = (nameOrPath: string): ScenarioDefinition => {
    const file = resolveFile(nameOrPath);
    if (!existsSync(file)) throw new SimScenarioNotFoundError(nameOrPath, available());
    let definition = loaded.get(file);
    if (!definition) {
      definition = loadScenarioFile(file, spec);
      loaded.set(file, definition);
    }
    return definition;
  };

  let definition = load(initial);
  let world = createWorld(definition);
  clock.reset(definition.start);
  return {
    get world() {
      return world;
    },
    available,
    use(nameOrPath) {
      definition = load(nameOrPath);
      world = createWorld(definition);
      clock.reset(definition.start);
      return definition;
    },
    reset() {
      world = createWorld(definition);
      clock.reset(definition.start);
    },
  };
}
