/**
 * Watching a scenario file for edits (`--watch`): each change that settles is read and loaded again; a
 * definition that loads is handed on, a broken one is reported with its places (`file:line:col: message`)
 * and nothing else happens, so whoever serves the scenario keeps its last good world. Knows nothing of HTTP
 * or partitions: the caller decides what a reload means.
 */
import { readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describeProblem, ScenarioError, type ScenarioDefinition } from './definition.js';

export interface ScenarioWatchHandlers {
  /** Turns the file's text into a definition; throws ScenarioError (or anything) when it cannot. */
  load(text: string): ScenarioDefinition;
  reloaded(definition: ScenarioDefinition): void;
  /** Each problem as one line, `file:line:col: message` where the text has a place. */
  failed(problems: string[]): void;
}

export interface ScenarioWatchOptions {
  /** How long the file must stay quiet before it is read: a save is often several writes, or a rename. */
  debounceMs?: number;
  /**
   * When (ms since the epoch) the served definition was read, if before the watching starts: a file changed
   * since is read again at once, so an edit made while the server was starting is not missed.
   */
  loadedAt?: number;
}

export const DEFAULT_DEBOUNCE_MS = 100;

/** Starts watching `file`; the returned function stops it. */
export function watchScenarioFile(
  file: string,
  handlers: ScenarioWatchHandlers,
  options: ScenarioWatchOptions = {},
): () => void {
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const name = basename(file);
  // The 1 ms covers Date.now() rounding down: a file written just before loading must not count as changed.
  const changedSinceLoad = options.loadedAt !== undefined && modifiedAt(file) > options.loadedAt + 1;
  let lastText = changedSinceLoad ? undefined : readText(file);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const settle = () => {
    timer = undefined;
    if (closed) return;
    const text = readText(file);
    // Absent mid-save (an editor renaming a new file into place): the rename that brings it back fires again.
    if (text === undefined) return;
    // Saving without changing anything, or the second event of one save, is no edit.
    if (text === lastText) return;
    lastText = text;
    let definition: ScenarioDefinition;
    try {
      definition = handlers.load(text);
    } catch (error) {
      handlers.failed(
        error instanceof ScenarioError
          ? error.problems.map(describeProblem)
          : [`${file}: ${error instanceof Error ? error.message : String(error)}`],
      );
      return;
    }
    handlers.reloaded(definition);
  };

  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(settle, debounceMs);
    timer.unref();
  };
  // The directory, not the file: editors that save by writing a new file and renaming it over the old one
  // would leave a watcher of the file itself watching a file that no longer exists.
  const watcher: FSWatcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
    if (closed || (changed !== null && changed.toString() !== name)) return;
    schedule();
  });
  // A directory that goes away ends the watching; the world served stays as it was.
  watcher.on('error', () => watcher.close());
  watcher.unref();
  if (changedSinceLoad) schedule();

  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
    watcher.close();
  };
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function modifiedAt(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
