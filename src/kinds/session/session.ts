/**
 * Session lifecycles: messages that page, agent/model switches and synthetic input that append messages,
 * agent turns that a resumed synthetic message plays (./turns.ts plans them, ./turn-play.ts plays them), busy
 * windows and turns that refuse revert staging, compaction admission with sequence numbers and id conflicts,
 * and instruction entries (permissions and questions are kinds of their own: src/kinds/permission, question).
 */
import { ConflictError } from '../../errors/errors.js';
import { MessageNotFoundError, SessionBusyError, SessionNotFoundError } from './errors.js';
import { jsonAnswer } from '../../exchange/exchange.js';
import { draft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { answered, changeState, NO_CONTENT } from '../answers.js';
import type { HandlerContext, Kind } from '../kind.js';
import { condition, format } from './format.js';
import type { SessionSection } from './section.generated.js';
import { lifecycleHandlers } from './lifecycle.js';
import { existing, newSessionState, sessionOrThrow } from './lookup.js';
import { pageMessages, type PageQuery } from './message-page.js';
import { sessionPublication } from './publication.js';
import { readSessions, type SessionReads } from './read.js';
import { inBusyWindow } from './state.js';
import { turnAppliers } from './turn-appliers.js';
import { admitPrompt, answersIn, fireTurns } from './turn-play.js';
import { nextTurnInstant } from './turn-events.js';
import type { MessageRecord, RevertFile, SessionState, SessionStatus } from './types.js';
import { SESSION_LIMITS } from './limits.js';
import { checkMessageQuery } from './message-cursor.js';
import { streams } from './streams.js';

type Body = Record<string, unknown>;

/** The real server's snapshot of an empty tree, for a revert the scenario does not describe. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

function newMessageId(context: HandlerContext): string {
  return context.world.ids.ascending('msg_', context.now);
}

function append(world: World, sessionID: string, message: MessageRecord): void {
  world.sessions.get(sessionID)?.messages.push(message);
}

const STATES: readonly SessionStatus[] = ['scheduled', 'busy', 'idle'];

export const session: Kind<SessionSection, SessionReads> = {
  name: 'session',
  streams,
  eventStreams: ['v2.session.events'],
  queryChecks: { 'v2.session.messages': checkMessageQuery },
  limits: SESSION_LIMITS,
  format,
  notFound: { param: 'sessionID', error: (id) => new SessionNotFoundError(id) },
  condition,
  states: STATES,
  transitions: [
    ['scheduled', 'idle'],
    ['idle', 'busy'],
    ['busy', 'idle'],
  ],

  read: (source, context) => ({
    sessions: readSessions(source, context),
    turnMatch: source.scriptedModel?.match ?? 'order',
  }),

  ids: (scenario) => scenario.sessions.map((s) => s.id),

  possible: (scenario) =>
    scenario.sessions.flatMap((s) => [
      ...(s.appears > scenario.start ? [{ id: s.id, from: 'scheduled', to: 'idle' }] : []),
      // Any session plays an agent turn on a synthetic message with resume (scripted or generated): idle → busy → idle.
      { id: s.id, from: 'idle', to: 'busy' },
      { id: s.id, from: 'busy', to: 'idle' },
    ]),

  // A session created later does not exist until then (the timeline creates it).
  seed: (scenario) => ({
    sessions: new Map(
      scenario.sessions.map((definition): [string, SessionState] => [
        definition.id,
        newSessionState(definition, scenario, scenario.start),
      ]),
    ),
  }),

  stateOf: (world, id) => world.sessions.get(id)?.status,

  snapshot: (world) => ({
    sessions: [...world.sessions.values()].map((s) => ({
      id: s.definition.id,
      state: s.status,
      messages: s.messages.length,
    })),
  }),

  publication: sessionPublication,

  handlers: {
    ...lifecycleHandlers,

    'v2.session.messages': (request, { world }) =>
      answered(
        jsonAnswer(
          200,
          pageMessages(sessionOrThrow(world, request.pathParams.sessionID).messages, request.query as PageQuery),
        ),
      ),

    'v2.session.switchAgent': (request, context) => {
      const { definition } = sessionOrThrow(context.world, request.pathParams.sessionID);
      const data = {
        timestamp: context.now,
        sessionID: definition.id,
        messageID: newMessageId(context),
        agent: (request.body as Body).agent as string,
      };
      return answered(NO_CONTENT, draft('session.next.agent.switched', data));
    },

    'v2.session.switchModel': (request, context) => {
      const { definition } = sessionOrThrow(context.world, request.pathParams.sessionID);
      const { id, providerID, variant } = (
        request.body as { model: { id: string; providerID: string; variant?: string } }
      ).model;
      // The message and the event carry the model as sent, as on the real server: no variant unless one was given.
      const data = {
        timestamp: context.now,
        sessionID: definition.id,
        messageID: newMessageId(context),
        model: { id, providerID, ...(variant === undefined ? {} : { variant }) },
      };
      return answered(NO_CONTENT, draft('session.next.model.switched', data));
    },

    'v2.session.synthetic': (request, context) => {
      const state = sessionOrThrow(context.world, request.pathParams.sessionID);
      const body = request.body as Body;
      const data = {
        timestamp: context.now,
        sessionID: state.definition.id,
        messageID: newMessageId(context),
        text: body.text as string,
      };
      const events = [draft('session.next.synthetic', data, body.metadata as Body | undefined)];
      // Resuming runs the agent on it: a turn now, or after the one playing.
      if (body.resume !== false)
        events.push(...admitPrompt(context.world, state, { messageID: data.messageID, text: data.text }, context.now));
      return answered(NO_CONTENT, ...events);
    },

    'v2.session.compact': (request, context) => {
      const state = sessionOrThrow(context.world, request.pathParams.sessionID);
      const given = (request.body as Body | undefined)?.id as string | undefined;
      if (given !== undefined && (state.inputs.has(given) || state.messages.some((m) => m.id === given))) {
        throw new ConflictError(given, `Session input already exists: ${given}`);
      }
      const id = given ?? newMessageId(context);
      const admittedSeq = state.inputSeq + 1;
      const sessionID = state.definition.id;
      return answered(
        jsonAnswer(200, { data: { type: 'compaction', admittedSeq, id, sessionID, timeCreated: context.now } }),
        draft('session.next.compaction.admitted', { timestamp: context.now, sessionID, messageID: id, admittedSeq }),
      );
    },

    'v2.session.revert.stage': (request, { world, now }) => {
      const sessionID = request.pathParams.sessionID ?? '';
      const messageID = (request.body as Body).messageID as string;
      const state = existing(world, sessionID);
      // SessionNotFoundError is not declared here: an unknown session has no such message either.
      if (!state) throw new MessageNotFoundError(sessionID, messageID);
      if (state.status === 'busy') throw new SessionBusyError(sessionID);
      if (!state.messages.some((m) => m.id === messageID)) throw new MessageNotFoundError(sessionID, messageID);
      const scripted = state.definition.revert ?? {};
      const revert = { messageID, snapshot: scripted.snapshot ?? EMPTY_TREE, files: scripted.files ?? [] };
      return answered(
        jsonAnswer(200, { data: revert }),
        draft('session.next.revert.staged', { timestamp: now, sessionID, revert }),
      );
    },

    'v2.session.instructions.entry.remove': (request, { world }) => {
      const { definition } = sessionOrThrow(world, request.pathParams.sessionID);
      return answered(
        NO_CONTENT,
        draft('session.instructions.entry.removed', { sessionID: definition.id, key: request.pathParams.key ?? '' }),
      );
    },
  },

  appliers: {
    ...turnAppliers,
    // The turn playing keeps what it started with; the next one takes the switch.
    'session.next.agent.switched': (world, { data }) => {
      append(world, data.sessionID, {
        id: data.messageID,
        time: { created: data.timestamp },
        type: 'agent-switched',
        agent: data.agent,
      });
      const state = world.sessions.get(data.sessionID);
      if (state) state.agent = data.agent;
    },
    'session.next.model.switched': (world, { data }) => {
      append(world, data.sessionID, {
        id: data.messageID,
        time: { created: data.timestamp },
        type: 'model-switched',
        model: data.model,
      });
      const state = world.sessions.get(data.sessionID);
      if (state) state.model = { ...data.model };
    },
    'session.next.synthetic': (world, { data, metadata }) =>
      append(world, data.sessionID, {
        id: data.messageID,
        time: { created: data.timestamp },
        type: 'synthetic',
        sessionID: data.sessionID,
        text: data.text,
        ...(metadata ? { metadata } : {}),
      }),
    'session.next.revert.staged': (world, { data }) => {
      const state = world.sessions.get(data.sessionID);
      if (state) state.revert = { ...data.revert, files: data.revert.files as RevertFile[] };
    },
    // Committing drops the messages from the staged one on; clearing keeps them all.
    'session.next.revert.committed': (world, { data }) => {
      const state = world.sessions.get(data.sessionID);
      if (!state) return;
      const from = state.messages.findIndex((m) => m.id === data.messageID);
      if (from >= 0) state.messages.splice(from);
      state.revert = undefined;
    },
    'session.next.revert.cleared': (world, { data }) => {
      const state = world.sessions.get(data.sessionID);
      if (state) state.revert = undefined;
    },
    'session.next.moved': (world, { data }) => {
      const state = world.sessions.get(data.sessionID);
      if (state) state.location = { ...data.location };
    },
    'session.next.compaction.admitted': (world, { data }) => {
      const state = world.sessions.get(data.sessionID);
      if (!state) return;
      state.inputSeq = data.admittedSeq;
      state.inputs.set(data.messageID, data.admittedSeq);
    },
    'session.status': (world, { data }) =>
      changeState('session', data.sessionID, world.sessions.get(data.sessionID), data.status.type),
    'session.created': (world, { data, time }) => {
      if (data.definition && !world.sessions.has(data.sessionID)) {
        world.sessions.set(data.sessionID, newSessionState(data.definition, world.scenario, time));
        return { kind: 'session', id: data.sessionID, from: 'scheduled', to: 'idle' };
      }
      return changeState('session', data.sessionID, world.sessions.get(data.sessionID), 'idle');
    },
  },

  schedule: {
    ids: (world) => world.sessions.keys(),
    // Every event a session applies names its session: a turn's thousand events move that session's timer alone.
    touches: ({ data }) => {
      const id = (data as { sessionID?: unknown }).sessionID;
      return typeof id === 'string' ? id : undefined;
    },
    next(world, id, now) {
      const state = world.sessions.get(id);
      if (!state) return undefined;
      if (state.status === 'scheduled') return state.definition.appears;
      const boundaries = state.definition.busy
        .flatMap((w) => [w.from, w.until])
        .filter((t): t is number => t !== undefined && t > now);
      // A turn waiting on answers goes on the moment the last is in.
      const waits = state.turn?.waits;
      const turn = waits ? (answersIn(waits) ? now : undefined) : nextTurnInstant(state);
      if (turn !== undefined) boundaries.push(turn);
      return boundaries.length ? Math.min(...boundaries) : undefined;
    },
    fire(world, id, now) {
      const state = world.sessions.get(id);
      if (state?.status === 'scheduled') {
        if (state.definition.appears > now) return [];
        // Created inside one of its busy windows, it is busy from the first instant.
        const busy = inBusyWindow(state.definition, now)
          ? [draft('session.status', { sessionID: id, status: { type: 'busy' } })]
          : [];
        return [draft('session.created', { sessionID: id }), ...busy];
      }
      return state ? fireTurns(world, state, now) : [];
    },
  },

  infer: () => import('./infer.js').then((m) => m.inferSessions),
};
