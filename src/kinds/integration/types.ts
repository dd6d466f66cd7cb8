/**
 * The integration kind's shapes: integrations with their connections (credentials), how an OAuth attempt
 * started with each of their OAuth methods goes, and their events.
 */
type JsonObject = Record<string, unknown>;

/** An integration as the API shows it (the scenario's `attempt` of each OAuth method already taken out). */
export type IntegrationRecord = JsonObject & { id: string; connections: Array<JsonObject> };

export type OAuthMode = 'auto' | 'code';

/**
 * How an attempt started with one OAuth method goes (scenario only, never served). `url` and `instructions`
 * may hold `{state}` and `{userCode}`, filled from the attempt's id.
 */
export interface OAuthFlow {
  readonly mode: OAuthMode;
  readonly url: string;
  readonly instructions: string;
  /** Milliseconds from creation to expiry. */
  readonly expires: number;
  readonly settles: {
    /** `expired`: nobody finishes it; pending until it expires. */
    readonly as: 'complete' | 'failed' | 'expired';
    /** Auto mode: milliseconds after creation. */
    readonly after?: number;
    /** Auto mode: the poll (1-based) that first answers the outcome, instead of a time. */
    readonly poll?: number;
    readonly message?: string;
    /** The credential's label when the request names none. */
    readonly label?: string;
  };
}

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly integrations: readonly IntegrationRecord[];
    /** Every OAuth method's flow, by integration id, then method id (read from `integrations`). */
    readonly oauthFlows: Readonly<Record<string, Readonly<Record<string, OAuthFlow>>>>;
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    /** Integrations with their live connections, in the order listed. */
    readonly integrations: Map<string, IntegrationRecord>;
  }
  interface WorldSnapshot {
    integrations: Array<Pick<IntegrationRecord, 'id' | 'connections'>>;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    /** sim: what `integration.connection.updated` announces: the credential now connected. */
    'integration.credential.connected': {
      integrationID: string;
      credential: { type: 'credential'; id: string; label: string };
    };
    'integration.connection.updated': { integrationID: string };
    'integration.updated': JsonObject;
    /** sim: a credential's label changed (the real server announces `integration.connection.updated`). */
    'credential.relabelled': { credentialID: string; label: string };
    /** sim: a credential was removed from its integration (announced the same way). */
    'credential.removed': { credentialID: string; integrationID: string };
  }
}
