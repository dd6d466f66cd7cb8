/** The workspace kind's shapes: the project's workspaces, which session is in which, and their events. */

export type WorkspaceStatus = 'connected' | 'connecting' | 'disconnected' | 'error';

/** A workspace; without a directory, a worktree workspace lives in its worktree's. */
export interface WorkspaceDefinition {
  readonly id: string;
  readonly type: string;
  readonly name: string;
  readonly branch: string | null;
  readonly directory?: string | null;
  readonly extra: unknown;
  readonly timeUsed: number;
  readonly status: WorkspaceStatus;
}

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly workspaces: readonly WorkspaceDefinition[];
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    readonly workspaces: Map<string, WorkspaceDefinition>;
    /** The workspace each warped session is in (a session detached to the local project has none). */
    readonly sessionWorkspaces: Map<string, string>;
  }
  interface WorldSnapshot {
    workspaces: Array<Pick<WorkspaceDefinition, 'id' | 'name' | 'status'>>;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    /** sim: a workspace was registered (created, or found by a sync); workspace.status follows. */
    'workspace.created': { info: WorkspaceDefinition };
    'workspace.status': { workspaceID: string; status: WorkspaceStatus };
    /** sim: a workspace was removed, with its worktree. */
    'workspace.removed': { id: string };
    /** sim: a session moved into a workspace (or back to the local project: null); session.updated follows. */
    'workspace.session.warped': { sessionID: string; workspaceID: string | null };
  }
}
