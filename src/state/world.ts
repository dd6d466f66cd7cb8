/**
 * The live state of a partition's scenario: sessions with their messages and inputs, forms, shells,
 * integrations, attempts, PTYs. Every resource's state is stored, not computed on demand: it changes only
 * when a domain event is applied (a request decided it, or a timer fell due), so each change has an instant
 * and a cause that the log records. Lookups are Maps by id.
 */
import type {
  AttemptDefinition,
  FormDefinition,
  MessageRecord,
  PtyDefinition,
  ScenarioDefinition,
  SessionDefinition,
  ShellDefinition,
} from '../scenarios/definition.js';
import { createIds, createRandom, type IdFactory } from './random.js';
import type { ResourceState, StatefulKind } from './resource-states.js';

export interface ModelRef {
  id: string;
  providerID: string;
  variant?: string;
}

/** A prompt admitted to run (a synthetic message with resume), waiting for its turn. */
export interface QueuedPrompt {
  messageID: string;
  text: string;
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
    };

/** How a model step ends: it finishes, it fails (ending the turn), or its call is retried. */
export type PlannedStepEnd =
  | { kind: 'ended'; at: number; finish: 'stop' | 'tool-calls'; cost: number; tokens: TokenUsage }
  | { kind: 'failed'; at: number; message: string }
  | { kind: 'retried'; at: number; attempt: number; message: string; statusCode?: number };

/** One model step: one assistant message. */
export interface PlannedStep {
  messageID: string;
  at: number;
  parts: PlannedPart[];
  end: PlannedStepEnd;
}

/**
 * A turn as decided when it starts: the agent and model it runs with (later switches wait for the next turn),
 * every step with its ids and instants. Its events follow from it alone (src/resources/turns.ts).
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
}

export interface PlayingTurn {
  readonly plan: TurnPlan;
  /** How many of the plan's events have happened. */
  position: number;
  /** The assistant message of the step under way. */
  message?: MessageRecord;
}

export interface SessionState {
  readonly definition: SessionDefinition;
  status: ResourceState<'session'>;
  /** Oldest first. */
  messages: MessageRecord[];
  /** Ids of inputs admitted through compaction, with their sequence numbers. */
  inputs: Map<string, number>;
  inputSeq: number;
  /** Questions still waiting for an answer. */
  questions: Set<string>;
  /** What the next turn runs with: the scenario's defaults, then the last switch. */
  agent: string;
  model: ModelRef;
  /** The turn playing now, if one is. */
  turn?: PlayingTurn;
  /** Admitted prompts waiting for the turn before them, oldest first. */
  queue: QueuedPrompt[];
  /** Turns started so far (scripted ones play first). */
  turnsStarted: number;
}

export interface FormState {
  readonly definition: FormDefinition;
  status: ResourceState<'form'>;
  answer?: Record<string, unknown>;
}

export interface ShellState {
  readonly definition: ShellDefinition;
  status: ResourceState<'shell'>;
  /** The current timeout deadline; a timeout update replaces it. */
  deadline?: number;
  completed?: number;
  exit?: number;
}

export interface AttemptState {
  readonly definition: AttemptDefinition;
  status: ResourceState<'attempt'>;
  polls: number;
  message?: string;
}

export interface PtyState {
  readonly definition: PtyDefinition;
  status: 'running' | 'exited';
  /** When a command that is not an interactive shell ends by itself (virtual time). */
  exitsAt?: number;
  exitCode?: number;
}

export type IntegrationState = Record<string, unknown> & { id: string; connections: Array<Record<string, unknown>> };

export interface World {
  readonly scenario: ScenarioDefinition;
  readonly ids: IdFactory;
  readonly sessions: Map<string, SessionState>;
  readonly forms: Map<string, FormState>;
  readonly shells: Map<string, ShellState>;
  /** Integrations with their live connections, in the order listed. */
  readonly integrations: Map<string, IntegrationState>;
  readonly attempts: Map<string, AttemptState>;
  readonly ptys: Map<string, PtyState>;
  /** Project copy directories handed out, for -2, -3… suffixes. */
  readonly copies: Set<string>;
}

/** Whether one of the scenario's busy windows holds at `now`. */
export function inBusyWindow(definition: SessionDefinition, now: number): boolean {
  return definition.busy.some((w) => now >= w.from && (w.until === undefined || now < w.until));
}

/** Whether a session is busy at `now`: a turn plays, or one of the scenario's busy windows holds. */
export function busyAt(session: SessionState, now: number): boolean {
  return session.turn !== undefined || inBusyWindow(session.definition, now);
}

const DEFAULT_AGENT = 'build';
const DEFAULT_MODEL: ModelRef = { id: 'claude-sonnet-4-5', providerID: 'anthropic' };

/** The agent and model a session's history leaves it with: its last switches, else the scenario's defaults. */
function initialChoice(
  definition: SessionDefinition,
  scenario: ScenarioDefinition,
): { agent: string; model: ModelRef } {
  const fallback = scenario.model as Partial<ModelRef> | undefined;
  let agent = DEFAULT_AGENT;
  let model: ModelRef =
    typeof fallback?.id === 'string' && typeof fallback.providerID === 'string'
      ? { id: fallback.id, providerID: fallback.providerID }
      : DEFAULT_MODEL;
  for (const m of definition.messages) {
    if (m.type === 'agent-switched' && typeof m.agent === 'string') agent = m.agent;
    if (m.type === 'model-switched' && m.model) model = { ...(m.model as ModelRef) };
  }
  return { agent, model };
}

/**
 * The world as it stands at the scenario's start: what is due by then is already so (a form that appears at
 * 0 s is pending), what is due later is left to the partition's timers.
 */
export function createWorld(scenario: ScenarioDefinition): World {
  const start = scenario.start;
  // Ids made while serving requests come from their own stream, so they do not depend on how many ids
  // loading the scenario used.
  const ids = createIds(createRandom(`${scenario.seed}:live`));
  const sessions = new Map(
    scenario.sessions.map((definition): [string, SessionState] => {
      const state: SessionState = {
        definition,
        status: 'idle',
        messages: [...definition.messages],
        inputs: new Map(),
        inputSeq: 0,
        questions: new Set(definition.questions),
        ...initialChoice(definition, scenario),
        queue: [],
        turnsStarted: 0,
      };
      // A session created later does not exist until then (the timeline creates it).
      state.status = definition.appears > start ? 'scheduled' : busyAt(state, start) ? 'busy' : 'idle';
      return [definition.id, state];
    }),
  );
  const forms = new Map(
    scenario.forms.map((definition): [string, FormState] => {
      const status =
        definition.cancelled !== undefined && definition.cancelled <= start
          ? 'cancelled'
          : definition.appears <= start
            ? 'pending'
            : 'scheduled';
      return [definition.record.id, { definition, status }];
    }),
  );
  const shells = new Map(
    scenario.shells.map((definition): [string, ShellState] => {
      // A command that starts later does not exist until then (the timeline starts it).
      const state: ShellState = {
        definition,
        status: definition.started > start ? 'scheduled' : 'running',
        deadline: definition.deadline,
      };
      // One started before the start may have ended by then: whichever came first, as the timeline decides later.
      const { completes: done, deadline } = definition;
      if (done && done.at <= start && (deadline === undefined || done.at < deadline))
        Object.assign(state, { status: 'exited', completed: done.at, exit: done.exit });
      else if (deadline !== undefined && deadline <= start)
        Object.assign(state, { status: 'timeout', completed: deadline });
      return [definition.id, state];
    }),
  );
  return {
    scenario,
    ids,
    sessions,
    forms,
    shells,
    integrations: new Map(scenario.integrations.map((i) => [i.id, structuredClone(i)])),
    // An attempt created before the start may have expired by then.
    attempts: new Map(
      scenario.attempts.map((definition): [string, AttemptState] => [
        definition.id,
        { definition, polls: 0, status: definition.expires <= start ? 'expired' : 'pending' },
      ]),
    ),
    ptys: new Map(
      scenario.ptys.map((definition): [string, PtyState] => [
        definition.record.id,
        { definition, status: definition.record.status === 'exited' ? 'exited' : 'running' },
      ]),
    ),
    copies: new Set(),
  };
}

/** The state of a resource now, by kind and id; undefined for an id the scenario does not have. */
export function stateOf(world: World, kind: StatefulKind, id: string): ResourceState<StatefulKind> | undefined {
  const table: { [K in StatefulKind]: Map<string, { status: ResourceState<K> }> } = {
    session: world.sessions,
    form: world.forms,
    shell: world.shells,
    attempt: world.attempts,
  };
  return table[kind].get(id)?.status;
}

/** Every resource and its state now, for `GET /__sim/state` and the handle's `state()`. */
export function snapshotWorld(world: World): Record<string, unknown> {
  return {
    scenario: world.scenario.name,
    sessions: [...world.sessions.values()].map((s) => ({
      id: s.definition.id,
      state: s.status,
      messages: s.messages.length,
      pendingQuestions: [...s.questions],
    })),
    forms: [...world.forms.values()].map((f) => ({
      id: f.definition.record.id,
      sessionID: f.definition.record.sessionID,
      state: f.status,
      ...(f.answer ? { answer: f.answer } : {}),
    })),
    shells: [...world.shells.values()].map((sh) => ({
      id: sh.definition.id,
      state: sh.status,
      deadline: sh.deadline ?? null,
    })),
    attempts: [...world.attempts.values()].map((a) => ({
      id: a.definition.id,
      integrationID: a.definition.integrationID,
      state: a.status,
      polls: a.polls,
    })),
    integrations: [...world.integrations.values()].map((i) => ({ id: i.id, connections: i.connections })),
    ptys: [...world.ptys.values()].map((p) => ({
      id: p.definition.record.id,
      state: p.status,
      ...(p.exitCode === undefined ? {} : { exitCode: p.exitCode }),
    })),
  };
}
