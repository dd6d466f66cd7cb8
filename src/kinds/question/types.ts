/** The question kind's shapes: question requests an agent asks, their live state and events. */
export interface QuestionOption {
  label: string;
  description: string;
}

/** One question of a request, as the client types it (`QuestionV2Info`). */
export interface QuestionInfo {
  question: string;
  header: string;
  options: readonly QuestionOption[];
  multiple?: boolean;
  custom?: boolean;
}

/** A question request as the client types it (`QuestionV2Request`), and as `question.v2.asked` carries it. */
export interface QuestionRecord {
  id: string;
  sessionID: string;
  questions: readonly QuestionInfo[];
  tool?: { messageID: string; callID: string };
}

export interface QuestionDefinition {
  readonly record: QuestionRecord;
  /** When the agent asks it (virtual time); pending from then until it is replied to or rejected. */
  readonly appears: number;
}

export type QuestionStatus = 'scheduled' | 'pending' | 'replied' | 'rejected';

export interface QuestionState {
  record: QuestionRecord;
  status: QuestionStatus;
  /** Set while it is scheduled. */
  appears?: number;
  answers?: string[][];
}

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly questions: readonly QuestionDefinition[];
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    readonly questions: Map<string, QuestionState>;
  }
  interface WorldSnapshot {
    questions: Array<{ id: string; sessionID: string; state: QuestionStatus; answers?: QuestionState['answers'] }>;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    'question.v2.asked': QuestionRecord;
    'question.v2.replied': { sessionID: string; requestID: string; answers: string[][] };
    'question.v2.rejected': { sessionID: string; requestID: string };
  }
}

declare module '../../state/resource-states.js' {
  interface KindStates {
    question: QuestionStatus;
  }
}
