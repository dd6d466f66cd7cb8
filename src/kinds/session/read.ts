/**
 * A scenario's sessions and their scripted turns, read into definitions: histories (scripted, or generated
 * from the seed), busy windows, revert data, pending questions, and each session's turns in the order written.
 */
import { parseDuration } from '../../text/duration.js';
import type { Path } from '../kind.js';
import { undeclared } from '../../text/closest.js';
import type { Scenario, ScenarioTurn, ScenarioTurnStep } from '../../format/scenario-types.js';
import { reportDuplicates } from '../answers.js';
import type { ReadContext } from '../kind.js';
import { generateMessages } from './generate-messages.js';
import { realTools, type ToolSchema } from './real-tools.js';
import type { SessionSection } from './section.generated.js';
import { toolInputProblems } from './tool-input.js';
import type { MessageRecord, SessionDefinition, TurnScript, TurnStep, Window } from './types.js';

/** Gap between consecutive messages that carry no `at`, so a history reads like a working session. */
const MESSAGE_SPACING = 45_000;

/** What reading sessions reads of other kinds' sections: the tools a scenario declares as its own. */
export type SessionReads = Pick<Scenario, 'tools'>;

export function readSessions(source: SessionSection & SessionReads, context: ReadContext): SessionDefinition[] {
  const { start, random, ids } = context;
  const sessions = (source.sessions ?? []).map((s, i): SessionDefinition => {
    const scripted = s.messages ?? [];
    const generated = generateMessages(random, s.generate?.count ?? 0);
    const all = [...scripted, ...generated];
    const messages = all.map((m, j): MessageRecord => {
      const { at: when, ...body } = m;
      const created = when === undefined ? start - (all.length - j) * MESSAGE_SPACING : context.after(when);
      const record = {
        id: m.id ?? ids.ascending('msg_', created),
        time: { created },
        ...body,
      } as MessageRecord;
      // Generated messages come from this code, not the user's file (a unit test holds them to the spec);
      // checking hundreds of them would only slow start-up.
      if (j < scripted.length)
        context.checkRecord('SessionMessage', record, ['sessions', i, 'messages', j], `message ${record.id}`);
      return record;
    });
    return {
      id: s.id,
      title: s.title,
      appears: s.appears === undefined ? start : context.after(s.appears),
      busy: (s.busy ?? []).map((w): Window => ({
        from: context.after(w.from),
        until: w.until === undefined ? undefined : context.after(w.until),
      })),
      busyAfterSynthetic: s.busyAfterSynthetic === undefined ? undefined : parseDuration(s.busyAfterSynthetic),
      messages: [...messages].sort((a, b) => a.time.created - b.time.created),
      revert: s.revert,
      questions: s.questions ?? [],
      turns: [],
    };
  });
  const sessionIds = new Set(sessions.map((s) => s.id));
  reportDuplicates(
    sessions.map((s) => s.id),
    'sessions',
    'session',
    context,
  );
  // A tool the scenario declares under tools: is its own, whatever its name: only the real ones are held to
  // the real schemas.
  const declaredTools = new Set((source.tools ?? []).map((t) => t.id));
  const toolSchemas = new Map([...realTools()].filter(([name]) => !declaredTools.has(name)));
  const turns = readTurns(
    source.turns ?? [],
    (path, message, atKey) => context.problem(path, message, { atKey }),
    toolSchemas,
  );
  for (const [i, turn] of turns.entries()) {
    if (!sessionIds.has(turn.session))
      context.problem(['turns', i, 'session'], undeclared('session', turn.session, 'sessions', sessionIds));
  }
  return sessions.map((s) => ({ ...s, turns: turns.filter((t) => t.session === s.id).map((t) => t.script) }));
}

/** The kinds of turn step, each the field that names it; a step has exactly one. */
const STEP_KINDS = ['reasoning', 'text', 'tool', 'fail', 'retry'] as const;
/** Options and the kinds they apply to (`after` applies to all). */
const STEP_OPTIONS: ReadonlyArray<readonly [keyof ScenarioTurnStep, ReadonlyArray<TurnStep['kind']>]> = [
  ['chunk', ['reasoning', 'text', 'tool']],
  ['every', ['reasoning', 'text', 'tool']],
  ['input', ['tool']],
  ['result', ['tool']],
  ['error', ['tool']],
  ['structured', ['tool']],
  ['ask', ['tool']],
  ['takes', ['tool']],
];

/**
 * `turns:` as scripts per session, in the order written. The format has already checked each field's type;
 * what it cannot say is checked here: one kind per step, options that fit the kind, and an order a turn can
 * play (a failed step ends the turn; a retry needs an attempt after it), and a call of a real tool with an
 * input the real tool would refuse (the real runtime would answer the model an error, not run the tool).
 */
function readTurns(
  raw: readonly ScenarioTurn[],
  report: (path: Path, message: string, atKey: boolean) => void,
  toolSchemas: ReadonlyMap<string, ToolSchema>,
): Array<{ session: string; script: TurnScript }> {
  const duration = (value: string | number | undefined) => (value === undefined ? undefined : parseDuration(value));
  return raw.map((turn, i) => {
    const rawSteps = turn.steps;
    const steps = rawSteps.map((step, j): TurnStep => {
      const path: Path = ['turns', i, 'steps', j];
      const kinds = STEP_KINDS.filter((k) => step[k] !== undefined);
      const kind = kinds[0] ?? 'text';
      if (kinds.length !== 1)
        report(
          path,
          kinds.length
            ? `a step is one thing; this one is ${kinds.join(' and ')}`
            : `a step needs one of ${STEP_KINDS.join(', ')}`,
          false,
        );
      for (const [option, fits] of STEP_OPTIONS) {
        if (step[option] !== undefined && kinds.length === 1 && !fits.includes(kind))
          report([...path, option], `${option} does not apply to a ${kind} step`, true);
      }
      if (step.result !== undefined && step.error !== undefined)
        report([...path, 'error'], 'a tool call answers a result or fails with an error, not both', true);
      if (kind === 'fail' && j < rawSteps.length - 1)
        report(
          ['turns', i, 'steps', j + 1],
          'nothing can follow fail: a failed step ends the turn (script a retry to try again)',
          false,
        );
      if (kind === 'retry' && j === rawSteps.length - 1)
        report(path, 'a retry needs the steps of the retried attempt after it', false);
      const after = duration(step.after);
      // A step's kind is the field it has, so that field is there; only a step of no kind (reported above, so
      // its definition is never used) reads as an empty text.
      switch (kind) {
        case 'reasoning':
        case 'text':
          return {
            kind,
            text: step[kind] ?? '',
            after,
            chunk: step.chunk,
            every: duration(step.every),
          };
        case 'tool': {
          const tool = step.tool ?? '';
          const schema = toolSchemas.get(tool);
          if (schema)
            for (const p of toolInputProblems(tool, step.input ?? {}, schema))
              report([...path, 'input', ...p.path], p.message, p.atKey);
          return {
            kind,
            tool,
            input: step.input ?? {},
            result: step.result,
            error: step.error,
            structured: step.structured,
            ...(step.ask === true ? { ask: true } : {}),
            takes: duration(step.takes),
            after,
            chunk: step.chunk,
            every: duration(step.every),
          };
        }
        case 'fail':
          return { kind, message: step.fail ?? '', after };
        case 'retry': {
          const retry = typeof step.retry === 'string' ? { message: step.retry } : (step.retry ?? { message: '' });
          return {
            kind,
            message: retry.message,
            statusCode: 'statusCode' in retry ? retry.statusCode : undefined,
            attempt: 'attempt' in retry ? retry.attempt : undefined,
            wait: duration(retry.wait),
            after,
            ...(retry.cut === true ? { cut: true } : {}),
          };
        }
      }
    });
    const script: TurnScript =
      turn.prompt === undefined ? { steps, order: i } : { steps, order: i, prompt: turn.prompt };
    return { session: turn.session, script };
  });
}
