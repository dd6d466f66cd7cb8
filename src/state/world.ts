/**
 * The live state of a loaded scenario: per-session messages and inputs, per-form status. Lookups are Maps
 * by id (O(1) in the number of resources); time-dependent state (busy windows, forms appearing or being
 * cancelled) is computed from the virtual clock when asked, so advancing time costs nothing.
 */
import type { Clock } from './clock.js';
import { createIds, createRandom, type IdFactory } from './random.js';
import type { AttemptDefinition, FormDefinition, MessageRecord, PtyDefinition, ScenarioDefinition, SessionDefinition, ShellDefinition } from '../scenarios/definition.js';

export interface SessionState {
  readonly definition: SessionDefinition;
  /** Oldest first. */
  messages: MessageRecord[];
  /** Busy until this virtual time because a synthetic message resumed it. */
  busyUntil?: number;
  /** Ids of inputs admitted through compaction, with their sequence numbers. */
  inputs: Map<string, number>;
  inputSeq: number;
  /** Questions still waiting for an answer. */
  questions: Set<string>;
}

export type FormStatus = 'scheduled' | 'pending' | 'answered' | 'cancelled';

export interface FormState {
  readonly definition: FormDefinition;
  answered?: { at: number; answer: Record<string, unknown> };
}

export type ShellStatus = 'running' | 'exited' | 'timeout';

export interface ShellState {
  readonly definition: ShellDefinition;
  /** The current timeout deadline; a PATCH replaces it. */
  deadline?: number;
}

export type AttemptStatus = 'pending' | 'complete' | 'failed' | 'expired';

export interface AttemptState {
  readonly definition: AttemptDefinition;
  polls: number;
  /** As of the last poll; once an attempt leaves pending it stays where it landed. */
  status: AttemptStatus;
}

/** The kinds a rule's `state` can name, each with the states it has (the scenario format lists the same). */
export type StatefulKind = 'session' | 'form' | 'shell' | 'attempt';

export interface PtyState {
  readonly definition: PtyDefinition;
}

export interface World {
  readonly scenario: ScenarioDefinition;
  readonly ids: IdFactory;
  readonly sessions: Map<string, SessionState>;
  readonly forms: Map<string, FormState>;
  readonly shells: Map<string, ShellState>;
  /** Integrations with their live connections, in the order listed. */
  readonly integrations: Map<string, Record<string, unknown> & { id: string; connections: Array<Record<string, unknown>> }>;
  readonly attempts: Map<string, AttemptState>;
  readonly ptys: Map<string, PtyState>;
  /** How many times each rule (by index) has answered. */
  readonly ruleUses: number[];
  /** Project copy directories handed out, for -2, -3… suffixes. */
  readonly copies: Set<string>;
  /** Status now, and when it ended (for `time.completed`). */
  shellStatus(shell: ShellState, now: number): { status: ShellStatus; completed?: number; exit?: number };
  isBusy(session: SessionState, now: number): boolean;
  formStatus(form: FormState, now: number): FormStatus;
  /** The state of a resource now, by kind and id; undefined for an id the scenario does not have. */
  stateOf(kind: StatefulKind, id: string, now: number): string | undefined;
}

export function createWorld(scenario: ScenarioDefinition): World {
  // Ids made while serving requests come from their own stream, so they do not depend on how many ids
  // loading the scenario used.
  const ids = createIds(createRandom(`${scenario.seed}:live`));
  const sessions = new Map(
    scenario.sessions.map((definition): [string, SessionState] => [
      definition.id,
      { definition, messages: [...definition.messages], inputs: new Map(), inputSeq: 0, questions: new Set(definition.questions) },
    ]),
  );
  const forms = new Map(scenario.forms.map((definition): [string, FormState] => [definition.record.id, { definition }]));
  const shells = new Map(scenario.shells.map((definition): [string, ShellState] => [definition.id, { definition, deadline: definition.deadline }]));
  const shellStatus: World['shellStatus'] = (shell, now) => {
    const done = shell.definition.completes;
    // Whichever comes first on the virtual clock wins: the command finishing, or its timeout firing.
    if (done && now >= done.at && (shell.deadline === undefined || done.at < shell.deadline)) return { status: 'exited', completed: done.at, exit: done.exit };
    if (shell.deadline !== undefined && now >= shell.deadline) return { status: 'timeout', completed: shell.deadline };
    return { status: 'running' };
  };
  const isBusy: World['isBusy'] = (session, now) => {
    if (session.busyUntil !== undefined && now < session.busyUntil) return true;
    return session.definition.busy.some((w) => now >= w.from && (w.until === undefined || now < w.until));
  };
  const formStatus: World['formStatus'] = (form, now) => {
    if (form.answered) return 'answered';
    const { appears, cancelled } = form.definition;
    if (cancelled !== undefined && now >= cancelled) return 'cancelled';
    return now < appears ? 'scheduled' : 'pending';
  };
  const attempts = new Map(scenario.attempts.map((definition): [string, AttemptState] => [definition.id, { definition, polls: 0, status: 'pending' }]));
  const stateOf: World['stateOf'] = (kind, id, now) => {
    switch (kind) {
      case 'session': {
        const session = sessions.get(id);
        return session && (isBusy(session, now) ? 'busy' : 'idle');
      }
      case 'form': {
        const form = forms.get(id);
        return form && formStatus(form, now);
      }
      case 'shell': {
        const shell = shells.get(id);
        return shell && shellStatus(shell, now).status;
      }
      case 'attempt':
        return attempts.get(id)?.status;
    }
  };
  return {
    scenario,
    ids,
    sessions,
    forms,
    shells,
    integrations: new Map(scenario.integrations.map((i) => [i.id, structuredClone(i)])),
    attempts,
    ptys: new Map(scenario.ptys.map((definition): [string, PtyState] => [definition.record.id, { definition }])),
    ruleUses: scenario.rules.map(() => 0),
    copies: new Set(),
    shellStatus,
    isBusy,
    formStatus,
    stateOf,
  };
}

/** Every resource and its state now, for `GET /__sim/state`. */
export function snapshotWorld(world: World, clock: Clock): Record<string, unknown> {
  const now = clock.now();
  return {
    scenario: world.scenario.name,
    now,
    sessions: [...world.sessions.values()].map((s) => ({
      id: s.definition.id,
      state: world.stateOf('session', s.definition.id, now),
      messages: s.messages.length,
      pendingQuestions: [...s.questions],
    })),
    forms: [...world.forms.values()].map((f) => ({
      id: f.definition.record.id,
      sessionID: f.definition.record.sessionID,
      state: world.stateOf('form', f.definition.record.id, now),
      ...(f.answered ? { answer: f.answered.answer } : {}),
    })),
    shells: [...world.shells.values()].map((sh) => ({ id: sh.definition.id, state: world.stateOf('shell', sh.definition.id, now), deadline: sh.deadline ?? null })),
    attempts: [...world.attempts.values()].map((a) => ({ id: a.definition.id, integrationID: a.definition.integrationID, state: a.status, polls: a.polls })),
    integrations: [...world.integrations.values()].map((i) => ({ id: i.id, connections: i.connections })),
    ptys: [...world.ptys.keys()],
    rules: world.scenario.rules.map((r, index) => ({ where: r.where, operation: r.operation, used: world.ruleUses[index], times: r.times ?? null })),
  };
}
