/**
 * The model kind's shapes: the default model record, and the model catalogue (providers with their models),
 * as the scenario has it or, without one, as the default catalogue (./defaults.ts) has it.
 */
type JsonObject = Record<string, unknown>;

/** A model of the catalogue: its `ModelV2Info` as `GET /api/model` lists it, and when it appears. */
export interface ModelDefinition {
  readonly info: JsonObject & { id: string; providerID: string; time: { released: number } };
  /** Virtual time it joins the catalogue (`catalog.updated`); absent: there from the start. */
  readonly appears?: number;
}

/** A provider of the catalogue: its `ProviderV2Info`, whether it is active, when it appears, its models. */
export interface ProviderDefinition {
  readonly info: JsonObject & { id: string; name: string; integrationID?: string };
  /**
   * true: always listed; false: never listed (provider.get still finds it); absent: listed while the
   * integration it belongs to has a connection, or when the world has no such integration.
   */
  readonly active?: boolean;
  readonly appears?: number;
  readonly models: readonly ModelDefinition[];
}

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly model?: Record<string, unknown>;
    /** The catalogue served: the scenario's `providers:` or the default one, with `model:` in it. */
    readonly providers: readonly ProviderDefinition[];
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    /** What of the catalogue has appeared: everything with `appears` up to this instant. */
    readonly catalogue: { revealedUntil: number };
  }
  interface WorldSnapshot {
    /** Providers of the catalogue, and whether they are listed yet (one may `appear` later). */
    providers: Array<{ id: string; listed: boolean }>;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    /** The catalogue changed: a provider or model of the scenario appeared. */
    'catalog.updated': Record<string, never>;
  }
}

export {};
