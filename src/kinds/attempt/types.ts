/** The OAuth attempt kind's shapes: a scenario attempt's definition, its live state and its events. */
export interface AttemptDefinition {
  readonly id: string;
  readonly integrationID: string;
  /** May be before the scenario's start. */
  readonly created: number;
  readonly expires: number;
  readonly settles?: {
    readonly as: 'complete' | 'failed';
    /** The poll (1-based) that first answers the outcome. */
    readonly poll?: number;
    /** The virtual time from which polls answer the outcome. */
    readonly at?: number;
    readonly message?: string;
    readonly credential?: { id: string; label?: string };
  };
}

export interface AttemptState {
  readonly definition: AttemptDefinition;
  status: AttemptStatus;
  polls: number;
  message?: string;
}

export type AttemptStatus = 'pending' | 'complete' | 'failed' | 'expired';

declare module '../../scenarios/definition.js' {
  interface ScenarioSections {
    readonly attempts: readonly AttemptDefinition[];
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    readonly attempts: Map<string, AttemptState>;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    /** sim: an OAuth attempt was polled (poll-scripted attempts settle on the Nth). */
    'integration.attempt.polled': { attemptID: string; polls: number };
    /** sim: an OAuth attempt left pending. */
    'integration.attempt.settled': {
      attemptID: string;
      integrationID: string;
      status: 'complete' | 'failed' | 'expired';
      message?: string;
    };
  }
}

declare module '../../state/resource-states.js' {
  interface KindStates {
    attempt: AttemptStatus;
  }
}
