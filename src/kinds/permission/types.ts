/** The permission kind's shapes: pending permission requests, saved permissions, their state and events. */
type JsonObject = Record<string, unknown>;

export type PermissionReply = 'once' | 'always' | 'reject';

export interface PermissionSource {
  type: 'tool';
  messageID: string;
  callID: string;
}

/** A permission request as the client types it (`PermissionV2Request`), and as `permission.v2.asked` carries it. */
export interface PermissionRequestRecord {
  id: string;
  sessionID: string;
  action: string;
  resources: readonly string[];
  save?: readonly string[];
  metadata?: JsonObject;
  source?: PermissionSource;
}

export interface PermissionRequestDefinition {
  readonly record: PermissionRequestRecord;
  /** When the agent asks it (virtual time); pending from then until it is replied to. */
  readonly appears: number;
}

/**
 * A permission an `always` reply saved: this action is allowed for resources matching the pattern. No
 * `projectID`: the project the partition serves.
 */
export interface SavedPermission {
  id: string;
  projectID?: string;
  action: string;
  resource: string;
}

export interface PermissionsDefinition {
  readonly requests: readonly PermissionRequestDefinition[];
  readonly saved: readonly SavedPermission[];
}

/** A request replied `once` or `always` is allowed; `reject` rejects it (and every other pending one of its session). */
export type PermissionStatus = 'scheduled' | 'pending' | 'allowed' | 'rejected';

export interface PermissionState {
  record: PermissionRequestRecord;
  status: PermissionStatus;
  /** Set while it is scheduled. */
  appears?: number;
  reply?: PermissionReply;
}

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly permissions: PermissionsDefinition;
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    readonly permissions: Map<string, PermissionState>;
    readonly savedPermissions: Map<string, SavedPermission>;
  }
  interface WorldSnapshot {
    permissions: Array<{ id: string; sessionID: string; state: PermissionStatus; reply?: PermissionReply }>;
    savedPermissions: SavedPermission[];
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    'permission.v2.asked': PermissionRequestRecord;
    'permission.v2.replied': { sessionID: string; requestID: string; reply: PermissionReply };
    /** sim: an `always` reply saved a pattern; the real server announces nothing of it. */
    'permission.saved': SavedPermission;
    /** sim: a saved permission removed; the real server announces nothing of it. */
    'permission.saved.removed': { id: string };
  }
}

declare module '../../state/resource-states.js' {
  interface KindStates {
    permission: PermissionStatus;
  }
}
