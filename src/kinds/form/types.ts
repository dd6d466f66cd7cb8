/** The form kind's shapes: a scenario form's definition, its live state and its events. */
type JsonObject = Record<string, unknown>;
export type FormRecord = Record<string, unknown> & {
  id: string;
  sessionID: string;
  title: string;
  mode: 'form' | 'url';
};

export interface FormDefinition {
  readonly record: FormRecord;
  readonly appears: number;
  readonly cancelled?: number;
}

export interface FormState {
  readonly definition: FormDefinition;
  status: FormStatus;
  answer?: Record<string, unknown>;
}

export type FormStatus = 'scheduled' | 'pending' | 'answered' | 'cancelled';

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly forms: readonly FormDefinition[];
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    readonly forms: Map<string, FormState>;
  }
  interface WorldSnapshot {
    forms: Array<{ id: string; sessionID: string; state: FormStatus; answer?: FormState['answer'] }>;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    'form.created': { form: JsonObject & { id: string; sessionID: string } };
    'form.replied': { id: string; sessionID: string; answer: JsonObject };
    'form.cancelled': { id: string; sessionID: string };
  }
}

declare module '../../state/resource-states.js' {
  interface KindStates {
    form: FormStatus;
  }
}
