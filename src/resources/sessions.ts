/**
 * Session lifecycles: messages that page, agent/model switches and synthetic input that append messages,
 * busy windows that refuse revert staging, compaction admission with sequence numbers and id conflicts,
 * permissions, questions and instruction entries.
 */
import {
  ConflictError,
  MessageNotFoundError,
  QuestionNotFoundError,
  SessionBusyError,
  SessionNotFoundError,
} from '../errors.js';
import type { MessageRecord } from '../scenarios/definition.js';
import type { SessionState, World } from '../state/world.js';
import type { HandlerContext, Handlers } from './handler.js';
import { pageMessages, type PageQuery } from './message-page.js';

type Body = Record<string, unknown>;

function session(world: World, id: string | undefined): SessionState {
  const found = world.sessions.get(id ?? '');
  if (!found) throw new SessionNotFoundError(id ?? '');
  return found;
}

function append(state: SessionState, context: HandlerContext, message: Omit<MessageRecord, 'id' | 'time'>): MessageRecord {
  const record = { id: context.world.ids.ascending('msg_', context.now), time: { created: context.now }, ...message } as MessageRecord;
  state.messages.push(record);
  return record;
}

const NO_CONTENT = { status: 204 } as const;

export const sessionHandlers: Handlers = {
  'v2.session.messages': (request, { world }) => {
    const state = session(world, request.pathParams.sessionID);
    return { status: 200, body: pageMessages(state.messages, request.query as PageQuery) };
  },

  'v2.session.switchAgent': (request, context) => {
    append(session(context.world, request.pathParams.sessionID), context, { type: 'agent-switched', agent: (request.body as Body).agent as string });
    return NO_CONTENT;
  },

  'v2.session.switchModel': (request, context) => {
    const { id, providerID, variant } = (request.body as { model: Body }).model;
    append(session(context.world, request.pathParams.sessionID), context, { type: 'model-switched', model: { id, providerID, variant: variant ?? 'default' } });
    return NO_CONTENT;
  },

  'v2.session.synthetic': (request, context) => {
    const state = session(context.world, request.pathParams.sessionID);
    const body = request.body as Body;
    append(state, context, { type: 'synthetic', sessionID: state.definition.id, text: body.text as string, ...(body.metadata ? { metadata: body.metadata } : {}) });
    // Resuming starts the agent: the session is busy for the scenario's scripted run time.
    if (body.resume !== false && state.definition.busyAfterSynthetic !== undefined) state.busyUntil = context.now + state.definition.busyAfterSynthetic;
    return NO_CONTENT;
  },

  'v2.session.compact': (request, context) => {
    const state = session(context.world, request.pathParams.sessionID);
    const given = (request.body as Body | undefined)?.id as string | undefined;
    if (given !== undefined && (state.inputs.has(given) || state.messages.some((m) => m.id === given))) {
      throw new ConflictError(given, `Session input already exists: ${given}`);
    }
    const id = given ?? context.world.ids.ascending('msg_', context.now);
    const admittedSeq = ++state.inputSeq;
    state.inputs.set(id, admittedSeq);
    return { status: 200, body: { data: { type: 'compaction', admittedSeq, id, sessionID: state.definition.id, timeCreated: context.now } } };
  },

  'v2.session.permission.create': (request, context) => {
    session(context.world, request.pathParams.sessionID);
    const given = (request.body as Body).id;
    return { status: 200, body: { data: { id: typeof given === 'string' ? given : context.world.ids.ascending('per_', context.now) } } };
  },

  'v2.session.revert.stage': (request, { world, now }) => {
    const sessionID = request.pathParams.sessionID ?? '';
    const messageID = (request.body as Body).messageID as string;
    const state = world.sessions.get(sessionID);
    // SessionNotFoundError is not declared here: an unknown session has no such message either.
    if (!state) throw new MessageNotFoundError(sessionID, messageID);
    if (world.isBusy(state, now)) throw new SessionBusyError(sessionID);
    if (!state.messages.some((m) => m.id === messageID)) throw new MessageNotFoundError(sessionID, messageID);
    const revert = state.definition.revert ?? {};
    return { status: 200, body: { data: { messageID, snapshot: revert.snapshot ?? '4b825dc642cb6eb9a060e54bf8d69288fbee4904', files: revert.files ?? [] } } };
  },

  'v2.session.question.reply': (request, { world }) => {
    const requestID = request.pathParams.requestID ?? '';
    const state = world.sessions.get(request.pathParams.sessionID ?? '');
    if (!state?.questions.delete(requestID)) throw new QuestionNotFoundError(requestID);
    return NO_CONTENT;
  },

  'v2.session.instructions.entry.remove': (request, { world }) => {
    session(world, request.pathParams.sessionID);
    return NO_CONTENT;
  },
};
