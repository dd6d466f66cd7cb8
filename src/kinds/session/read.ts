/**
 * A scenario's sessions and their scripted turns, read into definitions: histories (scripted, or generated
 * from the seed), busy windows, revert data, pending questions, and each session's turns in the order written.
 */
import { parseDuration } from '../../duration.js';
import type { Path } from '../kind.js';
import { undeclared } from '../../text/closest.js';
import { itemsOf, reportDuplicates } from '../answers.js';
import type { Json, ReadContext } from '../kind.js';
import { generateMessages } from './generate-messages.js';
import { realTools, type ToolSchema } from './real-tools.js';
import { toolInputProblems } from './tool-input.js';
import type { MessageRecord, SessionDefinition, TurnScript, TurnStep, Window } from './types.js';

/** Gap between consecutive messages that carry no `at`, so a history reads like a working session. */
const MESSAGE_SPACING = 45_000;

export function readSessions(source: Json, context: ReadContext): SessionDefinition[] {
  const { start, random, ids } = context;
  const sessions = itemsOf(source, 'sessions').map((s, i): SessionDefinition => {
    const scripted = (s.messages as Json[] | undefined) ?? [];
    const generated = generateMessages(random, ((s.generate as Json | undefined)?.count as number | undefined) ?? 0);
    const all = [...scripted, ...generated];
    const messages = all.map((m, j): MessageRecord => {
      const { at: when, ...body } = m;
      const created = when === undefined ? start - (all.length - j) * MESSAGE_SPACING : context.after(when);
      const record = {
        id: (m.id as string | undefined) ?? ids.ascending('msg_', created),
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
      id: s.id as string,
      title: s.title as string | undefined,
      appears: s.appears === undefined ? start : context.after(s.appears),
      busy: ((s.busy as Json[] | undefined) ?? []).map((w): Window => ({
        from: context.after(w.from),
        until: w.until === undefined ? undefined : context.after(w.until),
      })),
      busyAfterSynthetic:
        s.busyAfterSynthetic === undefined ? undefined : parseDuration(s.busyAfterSynthetic as string | number),
      messages: [...messages].sort((a, b) => a.time.created - b.time.created),
      revert: s.revert as SessionDefinition['revert'],
      questions: (s.questions as string[] | undefined) ?? [],
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
  const declaredTools = new Set(itemsOf(source, 'tools').map((t) => t.id));
  const toolSchemas = new Map([...realTools()].filter(([name]) => !declaredTools.has(name)));
  const turns = readTurns(
    itemsOf(source, 'turns'),
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
const STEP_OPTIONS: Record<string, ReadonlyArray<TurnStep['kind']>> = {
  chunk: ['reasoning', 'text', 'tool'],
  every: ['reasoning', 'text', 'tool'],
  input: ['tool'],
  result: ['tool'],
  error: ['tool'],
  structured: ['tool'],
  ask: ['tool'],
  takes: ['tool'],
};

/**
 * `turns:` as scripts per session, in the order written. The format has already checked each field's type;
 * what it cannot say is checked here: one kind per step, options that fit the kind, and an order a turn can
 * play (a failed step ends the turn; a retry needs an attempt after it), and a call of a real tool with an
 * input the real tool would refuse (the real runtime would answer the model an error, not run the tool).
 */
function readTurns(
  raw: Json[],
  report: (path: Path, message: string, atKey: boolean) => void,
  toolSchemas: ReadonlyMap<string, ToolSchema>,
): Array<{ session: string; script: TurnScript }> {
  const duration = (value: unknown) => (value === undefined ? undefined : parseDuration(value as string | number));
  return raw.map((turn, i) => {
    const rawSteps = turn.steps as Json[];
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
      for (const [option, fits] of Object.entries(STEP_OPTIONS)) {
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
      switch (kind) {
        case 'reasoning':
        case 'text':
          return {
            kind,
            text: step[kind] as string,
            after,
            chunk: step.chunk as number | undefined,
            every: duration(step.every),
          };
        case 'tool': {
          const schema = toolSchemas.get(step.tool as string);
          if (schema)
            for (const p of toolInputProblems(step.tool as string, step.input ?? {}, schema))
              report([...path, 'input', ...p.path], p.message, p.atKey);
          return {
            kind,
            tool: step.tool as string,
            input: (step.input as Json | undefined) ?? {},
            result: step.result as string | undefined,
            error: step.error as string | undefined,
            structured: step.structured as Json | undefined,
            ...(step.ask === true ? { ask: true } : {}),
            takes: duration(step.takes),
            after,
            chunk: step.chunk as number | undefined,
            every: duration(step.every),
          };
        }
        case 'fail':
          return { kind, message: step.fail as string, after };
        case 'retry': {
          const retry = typeof step.retry === 'string' ? { message: step.retry } : (step.retry as Json);
          return {
            kind,
            message: retry.message as string,
            statusCode: retry.statusCode as number | undefined,
            attempt: retry.attempt as number | undefined,
            wait: duration(retry.wait),
            after,
            ...(retry.cut === true ? { cut: true } : {}),
          };
        }
      }
    });
    const script: TurnScript =
      turn.prompt === undefined ? { steps, order: i } : { steps, order: i, prompt: turn.prompt as string };
    return { session: turn.session as string, script };
  });
}
