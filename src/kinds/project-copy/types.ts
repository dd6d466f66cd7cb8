/** The project copy kind's shapes: a scripted failure, the directories handed out, and their events. */

export interface ProjectCopyDefinition {
  readonly error?: { message: string; forceRequired?: boolean };
}

declare module '../../scenarios/definition.js' {
  interface ScenarioSections {
    readonly projectCopy: ProjectCopyDefinition;
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    /** Project copy directories handed out, for -2, -3… suffixes. */
    readonly copies: Set<string>;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    /** sim: a project copy handed out this directory (later copies get -2, -3…). */
    'project.copy.created': { projectID: string; directory: string };
    'project.directories.updated': { projectID: string };
  }
}
