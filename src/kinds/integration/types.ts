/** The integration kind's shapes: integrations with their connections (credentials), and their events. */
type Json = Record<string, unknown>;

export type IntegrationRecord = Json & { id: string; connections: Array<Json> };

declare module '../../scenarios/definition.js' {
  interface ScenarioSections {
    readonly integrations: readonly IntegrationRecord[];
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    /** Integrations with their live connections, in the order listed. */
    readonly integrations: Map<string, IntegrationRecord>;
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
    'integration.updated': Json;
    /** sim: a credential's label changed (the real server announces only `integration.updated`). */
    'credential.relabelled': { credentialID: string; label: string };
  }
}
