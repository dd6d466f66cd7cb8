/** The OAuth attempt kind's shapes: an attempt's definition, its live state and its events. */
import type { OAuthMode } from '../integration/types.js';

/** An attempt the scenario declares, or one a request started (`started`). */
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
    /** The credential a completed attempt connects (a started one's id is made when it completes). */
    readonly credential?: { id?: string; label?: string };
  };
  /** Started by POST /api/integration/{id}/connect/oauth; removed a minute after it settles, as on the real server. */
  readonly started?: { readonly methodID: string; readonly mode: OAuthMode };
}

export interface AttemptState {
  readonly definition: AttemptDefinition;
  status: AttemptStatus;
  polls: number;
  message?: string;
  /** When a started attempt that settled is removed. */
  removeAt?: number;
}

export type AttemptStatus = 'pending' | 'complete' | 'failed' | 'expired';

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly attempts: readonly AttemptDefinition[];
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    readonly attempts: Map<string, AttemptState>;
  }
  interface WorldSnapshot {
    attempts: Array<
      Pick<AttemptDefinition, 'id' | 'integrationID'> & {
        state: AttemptStatus;
        polls: number;
        /** How a started attempt was started; absent for one the scenario declares. */
        mode?: OAuthMode;
      }
    >;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    /** sim: an OAuth attempt was polled (poll-scripted attempts settle on the Nth). */
    'integration.attempt.polled': { attemptID: string; polls: number };
    /** sim: a request started an OAuth attempt (the real server announces nothing). */
    'integration.attempt.started': { attemptID: string; integrationID: string; attempt: AttemptDefinition };
    /** sim: a pending attempt was cancelled, and is gone. */
    'integration.attempt.cancelled': { attemptID: string };
    /** sim: a started attempt that settled is gone (a minute later, or to make room for a new one). */
    'integration.attempt.removed': { attemptID: string };
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
