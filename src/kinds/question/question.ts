/**
 * Questions an agent asks: pending (listed per session and for the location) until the user replies
 * (`question.v2.replied`) or rejects them (`question.v2.rejected`). The scenario's may be asked later
 * (`appears`, publishing `question.v2.asked`); a turn asks with ./ask.ts.
 */
import { QuestionNotFoundError } from './errors.js';
import { SessionNotFoundError } from '../session/errors.js';
import { jsonAnswer } from '../../exchange/exchange.js';
import { resolveLocation } from '../../openapi/location.js';
import { draft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { answered, changeState, NO_CONTENT } from '../answers.js';
import type { Kind } from '../kind.js';
import { MAX_QUESTIONS } from './limits.js';
import { pendingQuestions } from './ask.js';
import { condition, format } from './format.js';
import { readQuestions } from './read.js';
import type { QuestionSection } from './section.generated.js';
import type { Scenario } from '../../format/scenario-types.js';
import type { QuestionRecord, QuestionState, QuestionStatus } from './types.js';

/** Whether a session exists now: one the scenario creates later is unknown until then. */
function sessionExists(world: World, id: string | undefined): boolean {
  const found = world.sessions.get(id ?? '');
  return found !== undefined && found.status !== 'scheduled';
}

/** The session's pending question, or QuestionNotFoundError (another session's is not found either). */
function pendingOf(world: World, sessionID: string, requestID: string): QuestionState {
  const state = world.questions.get(requestID);
  if (state?.status !== 'pending' || state.record.sessionID !== sessionID) throw new QuestionNotFoundError(requestID);
  return state;
}

const STATES: readonly QuestionStatus[] = ['scheduled', 'pending', 'replied', 'rejected'];

export const question: Kind<QuestionSection, Pick<Scenario, 'sessions'>> = {
  name: 'question',
  limits: { question: MAX_QUESTIONS },
  format,
  condition,
  states: STATES,
  transitions: [
    ['scheduled', 'pending'],
    ['pending', 'replied'],
    ['pending', 'rejected'],
  ],

  read: (source, context) => ({ questions: readQuestions(source, context) }),

  ids: (scenario) => scenario.questions.map((q) => q.record.id),

  possible: (scenario) =>
    scenario.questions.flatMap(({ record, appears }) => [
      ...(appears > scenario.start ? [{ id: record.id, from: 'scheduled', to: 'pending' }] : []),
      { id: record.id, from: 'pending', to: 'replied' },
      { id: record.id, from: 'pending', to: 'rejected' },
    ]),

  seed: ({ questions, start }) => ({
    questions: new Map(
      questions.map(({ record, appears }): [string, QuestionState] => [
        record.id,
        appears > start ? { record, status: 'scheduled', appears } : { record, status: 'pending' },
      ]),
    ),
  }),

  stateOf: (world, id) => world.questions.get(id)?.status,

  snapshot: (world) => ({
    questions: [...world.questions.values()].map((q) => ({
      id: q.record.id,
      sessionID: q.record.sessionID,
      state: q.status,
      ...(q.answers ? { answers: q.answers } : {}),
    })),
  }),

  handlers: {
    'v2.session.question.list': (request, { world }) => {
      const sessionID = request.pathParams.sessionID ?? '';
      if (!sessionExists(world, sessionID)) throw new SessionNotFoundError(sessionID);
      return answered(jsonAnswer(200, { data: pendingQuestions(world, sessionID) }));
    },

    'v2.question.request.list': (request, { world, project }) => {
      const location = resolveLocation(project, request.query.location);
      // The sessions live in the project's own location; another directory has none waiting.
      const here = location.directory === project.directory;
      const data = here ? pendingQuestions(world).filter((q) => sessionExists(world, q.sessionID)) : [];
      return answered(jsonAnswer(200, { location, data }));
    },

    'v2.session.question.reply': (request, { world }) => {
      const requestID = request.pathParams.requestID ?? '';
      const sessionID = request.pathParams.sessionID ?? '';
      // SessionNotFoundError is not declared here: an unknown session has no such question either.
      if (!sessionExists(world, sessionID)) throw new QuestionNotFoundError(requestID);
      const asked = pendingOf(world, sessionID, requestID);
      const answers = (request.body as { answers: string[][] }).answers;
      return answered(
        NO_CONTENT,
        draft('question.v2.replied', { sessionID, requestID, answers }),
        ...heldTurn(asked.record, { rejected: false, answers }),
      );
    },

    'v2.session.question.reject': (request, { world }) => {
      const requestID = request.pathParams.requestID ?? '';
      const sessionID = request.pathParams.sessionID ?? '';
      if (!sessionExists(world, sessionID)) throw new SessionNotFoundError(sessionID);
      const asked = pendingOf(world, sessionID, requestID);
      return answered(
        NO_CONTENT,
        draft('question.v2.rejected', { sessionID, requestID }),
        ...heldTurn(asked.record, { rejected: true }),
      );
    },
  },

  appliers: {
    'question.v2.asked': (world, { data }) => {
      const known = world.questions.get(data.id);
      if (known?.status === 'scheduled') return changeState('question', data.id, known, 'pending', { record: data });
      if (!known) makeRoom(world);
      world.questions.set(data.id, { record: data, status: 'pending' });
      return undefined;
    },
    'question.v2.replied': (world, { data }) =>
      changeState('question', data.requestID, world.questions.get(data.requestID), 'replied', {
        answers: data.answers,
      }),
    'question.v2.rejected': (world, { data }) =>
      changeState('question', data.requestID, world.questions.get(data.requestID), 'rejected'),
  },

  schedule: {
    ids: (world) => [...world.questions.values()].filter((q) => q.status === 'scheduled').map((q) => q.record.id),
    next: (world, id) => world.questions.get(id)?.appears,
    fire(world, id, now) {
      const state = world.questions.get(id);
      if (state?.status !== 'scheduled' || (state.appears ?? 0) > now) return [];
      return [draft('question.v2.asked', state.record)];
    },
  },

  infer: () => import('./infer.js').then((m) => m.inferQuestions),
};

/** A question the question tool asked holds its turn: the session hears the answer too. */
function heldTurn(record: QuestionRecord, answer: { rejected: boolean; answers?: string[][] }) {
  return record.tool
    ? [draft('session.turn.answered', { sessionID: record.sessionID, requestID: record.id, ...answer })]
    : [];
}

/** Keeps the table within its bound: settled questions are forgotten oldest first once open ones need the room. */
function makeRoom(world: World): void {
  if (world.questions.size < MAX_QUESTIONS) return;
  const settled = [...world.questions.values()].find((q) => q.status === 'replied' || q.status === 'rejected');
  if (settled) world.questions.delete(settled.record.id);
}
