/** The project copy kind's shapes: a scripted failure, the copies that exist, and their events. */

export interface ProjectCopyDefinition {
  readonly error?: { message: string; forceRequired?: boolean };
  /** Copies that exist when the scenario starts; a dirty one has changes, so removing it needs `force`. */
  readonly copies?: ReadonlyArray<{ directory: string; dirty?: boolean }>;
}

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly projectCopy: ProjectCopyDefinition;
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    /** Project copy directories that exist (later copies of a taken name get -2, -3…). */
    readonly copies: Set<string>;
    /** The copies with modified or untracked files. */
    readonly dirtyCopies: Set<string>;
  }
  interface WorldSnapshot {
    projectCopies: Array<{ directory: string; dirty: boolean }>;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    /** sim: a project copy handed out this directory (later copies get -2, -3…). */
    'project.copy.created': { projectID: string; directory: string };
    /** sim: a project copy was removed (its directory is free again). */
    'project.copy.removed': { projectID: string; directory: string };
    'project.directories.updated': { projectID: string };
  }
}
