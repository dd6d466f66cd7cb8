/** The session kind's shapes: a scenario session's definition (history, busy windows, turns), its state and events. */
type JsonObject = Record<string, unknown>;
// The client's types that turn events carry (`Prompt`, `SessionErrorUnknown`, `LlmToolContent`, …).
export type Prompt = {
  text: string;
  files?: Array<{ uri: string; mime: string; name?: string; description?: string; source?: PromptSource }>;
  agents?: Array<{ name: string; source?: PromptSource }>;
};
type PromptSource = { start: number; end: number; text: string };
type ProviderMetadata = Record<string, JsonObject>;
type ToolProvider = { executed: boolean; metadata?: ProviderMetadata };
type ToolContent = { type: 'text'; text: string } | { type: 'file'; uri: string; mime: string; name?: string };
type ErrorUnknown = { type: 'unknown'; message: string };
type RetryError = {
  message: string;
  statusCode?: number;
  isRetryable: boolean;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  metadata?: Record<string, string>;
};
type StepData = { timestamp: number; sessionID: string; assistantMessageID: string };

export interface Window {
  from: number;
  until?: number;
}

export type MessageRecord = Record<string, unknown> & { id: string; time: { created: number }; type: string };

export interface RevertFile {
  file: string;
  patch: string;
  additions: number;
  deletions: number;
}

/**
 * One thing an agent turn does, as the scenario's `turns:` script says (durations in milliseconds; what is
 * absent takes the defaults of ./turns.ts).
 */
export type TurnStep =
  | {
      readonly kind: 'reasoning' | 'text';
      readonly text: string;
      readonly after?: number;
      readonly chunk?: number;
      readonly every?: number;
    }
  | {
      readonly kind: 'tool';
      readonly tool: string;
      readonly input: Readonly<Record<string, unknown>>;
      /** What the tool answers (its text content); `error` instead makes the call fail. */
      readonly result?: string;
      readonly error?: string;
      readonly structured?: Readonly<Record<string, unknown>>;
      /** The call asks for its permission first, and waits for the reply (the question tool always asks). */
      readonly ask?: boolean;
      readonly takes?: number;
      readonly after?: number;
      readonly chunk?: number;
      readonly every?: number;
    }
  | { readonly kind: 'fail'; readonly message: string; readonly after?: number }
  | {
      readonly kind: 'retry';
      readonly message: string;
      readonly statusCode?: number;
      readonly attempt?: number;
      readonly wait?: number;
      readonly after?: number;
      /** A scripted model streams the attempt's output so far, then drops the connection. */
      readonly cut?: boolean;
    };

export interface TurnScript {
  readonly steps: readonly TurnStep[];
  /** Text the prompt contains, for a scripted model matching by prompt. */
  readonly prompt?: string;
  /** Where it stands in the scenario's `turns:` list, whatever its session (a scripted model plays them so). */
  readonly order: number;
}

/** How a scripted model picks a conversation's turn (`scriptedModel.match`). */
export type TurnMatch = 'order' | 'session' | 'prompt';

export interface SessionDefinition {
  readonly id: string;
  readonly title?: string;
  /** When the session is created (virtual time); before it, it does not exist. */
  readonly appears: number;
  readonly busy: readonly Window[];
  /** How long a generated turn plays (a scripted one takes what its script says); natural length when absent. */
  readonly busyAfterSynthetic?: number;
  /** Scripted turns, played in order by synthetic messages with resume; generated turns follow. */
  readonly turns: readonly TurnScript[];
  readonly messages: readonly MessageRecord[];
  readonly revert?: { snapshot?: string; files?: readonly RevertFile[] };
  readonly questions: readonly string[];
  /** Where it runs, for a session a client created elsewhere than the project directory. */
  readonly location?: SessionLocation;
  /** What a client created it with (a scenario session takes the scenario's defaults and its history's switches). */
  readonly agent?: string;
  readonly model?: ModelRef;
}

export interface SessionLocation {
  directory: string;
  workspaceID?: string;
}

/** A revert staged and not yet committed or cleared. */
export interface StagedRevert {
  messageID: string;
  snapshot: string;
  files: readonly RevertFile[];
}

export interface ModelRef {
  id: string;
  providerID: string;
  variant?: string;
}

/** A prompt admitted to run (a synthetic message with resume), waiting for its turn. */
export interface QueuedPrompt {
  messageID: string;
  text: string;
  /** A client's prompt (not a synthetic message): its user message is added when its turn starts. */
  prompt?: Prompt;
  delivery?: 'steer' | 'queue';
}

export interface TokenUsage {
  input: number;
  output: number;
  reasoning: number;
  cache: { read: number; write: number };
}

/** Something a model step streams: text or reasoning in chunks, or a tool call (its input streamed as JSON). */
export type PlannedPart =
  | { kind: 'text' | 'reasoning'; id: string; at: number; text: string; chunk: number; every: number }
  | {
      kind: 'tool';
      callID: string;
      at: number;
      tool: string;
      input: Record<string, unknown>;
      chunk: number;
      every: number;
      takes: number;
      result?: string;
      error?: string;
      structured?: Record<string, unknown>;
      /** The call waits for an answer before it runs: its permission (when the rules ask), or its question. */
      asks?: 'permission' | 'question';
    };

/**
 * How a model step ends: it finishes, or it fails (ending the turn). Failing with no part streamed, it shows
 * only its start and its failure.
 */
export type PlannedStepEnd =
  | { kind: 'ended'; at: number; finish: 'stop' | 'tool-calls'; cost: number; tokens: TokenUsage }
  | { kind: 'failed'; at: number; message: string };

/** One model step: one assistant message. */
export interface PlannedStep {
  messageID: string;
  /** Its first token: nothing of a step shows before the model answers. */
  at: number;
  /** When the model's stream ends: tool inputs end and the tools are called, the text ends. */
  streamed: number;
  parts: PlannedPart[];
  end: PlannedStepEnd;
  /** The workspace's snapshot as the step starts, and as it ends with the files its tools changed. */
  snapshot: { start: string; end: string; files: string[] };
}

/** A question or permission a turn waits on, and the tool call it holds. */
export interface TurnWait {
  kind: 'permission' | 'question';
  requestID: string;
  callID: string;
  /** Once answered: rejected, or allowed (a question with its answers). */
  answer?: { rejected: boolean; answers?: string[][] };
}

/**
 * A turn as decided when it starts: the agent and model it runs with (later switches wait for the next turn),
 * every step with its ids and instants. Its events follow from it alone (./turns.ts).
 */
export interface TurnPlan {
  sessionID: string;
  /** The admitted prompt it answers (the synthetic message). */
  promptID: string;
  /** Which of the session's turns, from 0. */
  number: number;
  /** A turn of the scenario's `turns:` script, or one generated from the seed. */
  scripted: boolean;
  agent: string;
  model: ModelRef;
  start: number;
  steps: PlannedStep[];
  /** Where the session runs, for the paths its tools answer with. */
  directory?: string;
}

export interface PlayingTurn {
  readonly plan: TurnPlan;
  /** How many of the plan's events have happened. */
  position: number;
  /** The assistant message of the step under way. */
  message?: MessageRecord;
  /** How much later than planned what is left plays: the time spent waiting on answers. */
  delay: number;
  /** The answers it waits on; the turn stands still until every one is settled. */
  waits?: TurnWait[];
  /** Question answers, by call, for the question tool's result. */
  answers?: Record<string, string[][]>;
}

export interface SessionState {
  readonly definition: SessionDefinition;
  status: SessionStatus;
  /** Oldest first. */
  messages: MessageRecord[];
  /** Ids of inputs admitted through compaction, with their sequence numbers. */
  inputs: Map<string, number>;
  inputSeq: number;
  /** What the next turn runs with: the scenario's defaults, then the last switch. */
  agent: string;
  model: ModelRef;
  /** The turn playing now, if one is. */
  turn?: PlayingTurn;
  /** The workspace's snapshot as the last step left it (its turns' tools change files). */
  snapshot?: string;
  /** Admitted prompts waiting for the turn before them, oldest first. */
  queue: QueuedPrompt[];
  /** Turns started so far (scripted ones play first). */
  turnsStarted: number;
  /** The revert staged, until it is committed or cleared. */
  revert?: StagedRevert;
  /** Where it runs now (a move changes it); the project directory when undefined. */
  location?: SessionLocation;
  /** The workspace a warp put it in (null: warped out of any), over what its location says. */
  workspace?: string | null;
}

export type SessionStatus = 'scheduled' | 'idle' | 'busy';

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly sessions: readonly SessionDefinition[];
    /** How a scripted model picks the turn a conversation plays (`scriptedModel.match`, default order). */
    readonly turnMatch: TurnMatch;
  }
}

declare module '../../state/world.js' {
  interface WorldTables {
    readonly sessions: Map<string, SessionState>;
  }
  interface WorldSnapshot {
    /** `messages`: how many the session has now. */
    sessions: Array<{ id: string; state: SessionStatus; messages: number }>;
  }
}

declare module '../../state/events.js' {
  interface EventCatalog {
    /** `definition` for a session a client creates (a scenario's are in the world from the start). */
    'session.created': { sessionID: string; definition?: SessionDefinition };
    'session.status': { sessionID: string; status: { type: 'busy' | 'idle' } };
    'session.next.agent.switched': { timestamp: number; sessionID: string; messageID: string; agent: string };
    'session.next.model.switched': {
      timestamp: number;
      sessionID: string;
      messageID: string;
      model: { id: string; providerID: string; variant?: string };
    };
    'session.next.synthetic': { timestamp: number; sessionID: string; messageID: string; text: string };
    // A turn (./turns.ts), each `data` exactly the client's (test/unit/kinds/session/turns.test.ts holds them to it).
    'session.next.prompt.admitted': {
      timestamp: number;
      sessionID: string;
      messageID: string;
      prompt: Prompt;
      delivery: 'steer' | 'queue';
    };
    /** sim: a prompt admitted without resume waits for no turn: it is only recorded. */
    'session.prompt.held': { sessionID: string; messageID: string };
    'session.next.prompted': {
      timestamp: number;
      sessionID: string;
      messageID: string;
      prompt: Prompt;
      delivery: 'steer' | 'queue';
    };
    /** sim: an interrupt ended the turn playing and dropped the prompts waiting behind it. */
    'session.turn.interrupted': { sessionID: string };
    'session.next.revert.committed': { timestamp: number; sessionID: string; messageID: string };
    'session.next.revert.cleared': { timestamp: number; sessionID: string };
    'session.next.moved': { timestamp: number; sessionID: string; location: SessionLocation };
    'session.next.step.started': StepData & { agent: string; model: ModelRef; snapshot?: string };
    'session.next.step.ended': StepData & {
      finish: string;
      cost: number;
      tokens: { input: number; output: number; reasoning: number; cache: { read: number; write: number } };
      snapshot?: string;
      files?: string[];
    };
    'session.next.step.failed': StepData & { error: ErrorUnknown };
    'session.next.text.started': StepData & { textID: string };
    'session.next.text.delta': StepData & { textID: string; delta: string };
    'session.next.text.ended': StepData & { textID: string; text: string };
    'session.next.reasoning.started': StepData & { reasoningID: string; providerMetadata?: ProviderMetadata };
    'session.next.reasoning.delta': StepData & { reasoningID: string; delta: string };
    'session.next.reasoning.ended': StepData & {
      reasoningID: string;
      text: string;
      providerMetadata?: ProviderMetadata;
    };
    'session.next.tool.input.started': StepData & { callID: string; name: string };
    'session.next.tool.input.delta': StepData & { callID: string; delta: string };
    'session.next.tool.input.ended': StepData & { callID: string; text: string };
    'session.next.tool.called': StepData & { callID: string; tool: string; input: JsonObject; provider: ToolProvider };
    'session.next.tool.success': StepData & {
      callID: string;
      structured: JsonObject;
      content: ToolContent[];
      outputPaths?: string[];
      result?: unknown;
      provider: ToolProvider;
    };
    'session.next.tool.failed': StepData & {
      callID: string;
      error: ErrorUnknown;
      result?: unknown;
      provider: ToolProvider;
    };
    'session.next.retried': { timestamp: number; sessionID: string; attempt: number; error: RetryError };
    /** sim: a turn starts to play, with everything it will do (its events follow from this plan alone). */
    'session.turn.started': TurnPlan;
    /** sim: an answer a turn waits on (the permission or question kind tells the session). */
    'session.turn.answered': { sessionID: string; requestID: string; rejected: boolean; answers?: string[][] };
    /** sim: a turn's tools wait on these answers (a permission or a question asked mid-turn). */
    'session.turn.waiting': { sessionID: string; waits: TurnWait[] };
    /**
     * sim: every answer is in: the turn goes on `delay` ms later than planned, or ends (a rejection), and the
     * question tool answers with what was answered.
     */
    'session.turn.resumed': { sessionID: string; delay: number; ends: boolean; answers: Record<string, string[][]> };
    /** sim: a session is running a turn or not; the real server announces no status for a prompted turn. */
    'session.turn.status': { sessionID: string; status: { type: 'busy' | 'idle' } };
    /** sim: a compaction request durably admitted with its sequence number. */
    'session.next.compaction.admitted': {
      timestamp: number;
      sessionID: string;
      messageID: string;
      admittedSeq: number;
    };
    'session.next.revert.staged': {
      timestamp: number;
      sessionID: string;
      revert: { messageID: string; snapshot: string; files: readonly unknown[] };
    };
    /** sim: the real server announces the removal to the model, not on the stream. */
    'session.instructions.entry.removed': { sessionID: string; key: string };
  }
}

declare module '../../state/resource-states.js' {
  interface KindStates {
    session: SessionStatus;
  }
}
