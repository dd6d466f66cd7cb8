/** The worktree kind's shapes: the project's sandbox worktrees and their events. */

/** A worktree; without a directory it lives where the real server puts them, under its data directory. */
export interface WorktreeDefinition {
  readonly name: string;
  readonly branch?: string;
  readonly directory?: string;
}

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly worktrees: readonly WorktreeDefinition[];
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    /** The project's worktrees by name (names are unique: they are the directories' names). */
    readonly worktrees: Map<string, WorktreeDefinition>;
  }
  interface WorldSnapshot {
    worktrees: WorktreeDefinition[];
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    /** A worktree is checked out; published without its directory, as the real server's. */
    'worktree.ready': { name: string; branch?: string; directory: string };
    /** sim: a worktree and its branch were removed. */
    'worktree.removed': { name: string };
  }
}
