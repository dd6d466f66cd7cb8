/**
 * The session operations a frontend drives a conversation with: create, list, get and the busy ones; the
 * messages a model reads (context) and one by id; a prompt that plays a turn as a resumed synthetic message
 * does, and the interrupt that stops it; committing or clearing a staged revert; the experimental list,
 * background and move.
 */
import { ConflictError } from '../../errors/errors.js';
import { MessageNotFoundError, MoveSessionError } from './errors.js';
import { jsonAnswer } from '../../exchange/exchange.js';
import { draft } from '../../state/events.js';
import { answered, NO_CONTENT } from '../answers.js';
import type { Handlers } from '../kind.js';
import { ensureRoom } from '../limits.js';
import { SESSION_LIMITS } from './limits.js';
import { storedPrompt } from './attachments.js';
import { clientSession, sessionV2Info } from './info.js';
import { existing, newSessionState, sessionOrThrow } from './lookup.js';
import { listSessions, sessionRows, type SessionListQuery } from './session-list.js';
import { admitPrompt, interruptTurn } from './turn-play.js';
import type { ModelRef, SessionDefinition, SessionLocation, SessionState } from './types.js';

type Body = Record<string, unknown>;

/** Whether an id is taken by something the session durably holds: a message, an admitted input, a queued prompt. */
function taken(state: SessionState, id: string): boolean {
  return state.inputs.has(id) || state.messages.some((m) => m.id === id) || state.queue.some((p) => p.messageID === id);
}

export const lifecycleHandlers: Handlers = {
  'v2.session.create': (request, { world, now, project }) => {
    const body = (request.body ?? {}) as Body;
    const given = typeof body.id === 'string' ? body.id : undefined;
    // Creating an id that exists answers the session as it is, as the real server does.
    const found = existing(world, given);
    if (found) return answered(jsonAnswer(200, { data: sessionV2Info(world, found, project) }));
    ensureRoom(world.sessions.size, SESSION_LIMITS.session, 'session');
    const id = given ?? world.ids.descending('ses_', now);
    const location = body.location as SessionLocation | undefined;
    const definition: SessionDefinition = {
      id,
      appears: now,
      busy: [],
      turns: [],
      messages: [],
      questions: [],
      ...(location ? { location: { ...location } } : {}),
      ...(typeof body.agent === 'string' ? { agent: body.agent } : {}),
      ...(body.model ? { model: { ...(body.model as ModelRef) } } : {}),
    };
    const info = sessionV2Info(world, newSessionState(definition, world.scenario, now), project);
    return answered(jsonAnswer(200, { data: info }), draft('session.created', { sessionID: id, definition }));
  },

  'v2.session.list': (request, { world, project }) =>
    answered(jsonAnswer(200, listSessions(world, project, request.query as SessionListQuery))),

  'v2.session.get': (request, { world, project }) =>
    answered(
      jsonAnswer(200, { data: sessionV2Info(world, sessionOrThrow(world, request.pathParams.sessionID), project) }),
    ),

  'v2.session.active': (_request, { world }) => {
    const data: Record<string, { type: 'running' }> = {};
    for (const [id, state] of world.sessions) if (state.status === 'busy') data[id] = { type: 'running' };
    return answered(jsonAnswer(200, { data }));
  },

  // What the model reads: everything after the last compaction, oldest first.
  'v2.session.context': (request, { world }) => {
    const { messages } = sessionOrThrow(world, request.pathParams.sessionID);
    const last = messages.map((m) => m.type).lastIndexOf('compaction');
    return answered(jsonAnswer(200, { data: messages.slice(last < 0 ? 0 : last) }));
  },

  'v2.session.message': (request, { world }) => {
    const state = sessionOrThrow(world, request.pathParams.sessionID);
    const messageID = request.pathParams.messageID ?? '';
    const message = state.messages.find((m) => m.id === messageID);
    if (!message) throw new MessageNotFoundError(state.definition.id, messageID);
    return answered(jsonAnswer(200, { data: message }));
  },

  'v2.session.prompt': (request, context) => {
    const state = sessionOrThrow(context.world, request.pathParams.sessionID);
    const body = request.body as {
      id?: string;
      prompt: Parameters<typeof storedPrompt>[0];
      delivery?: 'steer' | 'queue';
      resume?: boolean;
    };
    if (body.id !== undefined && taken(state, body.id))
      throw new ConflictError(body.id, `Prompt message ID conflicts with an existing durable record: ${body.id}`);
    ensureRoom(state.messages.length + state.queue.length, SESSION_LIMITS.message, 'message in this session');
    const messageID = body.id ?? context.world.ids.ascending('msg_', context.now);
    const delivery = body.delivery ?? 'steer';
    const stored = storedPrompt(body.prompt);
    const prompt = { messageID, text: stored.text, prompt: stored, delivery };
    const events = admitPrompt(context.world, state, prompt, context.now, body.resume !== false);
    const data = {
      admittedSeq: state.inputSeq + 1,
      id: messageID,
      sessionID: state.definition.id,
      prompt: stored,
      delivery,
      timeCreated: context.now,
    };
    return answered(jsonAnswer(200, { data }), ...events);
  },

  // Idle interruption is a no-op, as the operation says.
  'v2.session.interrupt': (request, { world, now }) =>
    answered(NO_CONTENT, ...interruptTurn(sessionOrThrow(world, request.pathParams.sessionID), now)),

  'v2.session.revert.commit': (request, { world, now }) => {
    const state = sessionOrThrow(world, request.pathParams.sessionID);
    if (!state.revert) return answered(NO_CONTENT);
    const data = { timestamp: now, sessionID: state.definition.id, messageID: state.revert.messageID };
    return answered(NO_CONTENT, draft('session.next.revert.committed', data));
  },

  'v2.session.revert.clear': (request, { world, now }) => {
    const state = sessionOrThrow(world, request.pathParams.sessionID);
    if (!state.revert) return answered(NO_CONTENT);
    return answered(
      NO_CONTENT,
      draft('session.next.revert.cleared', { timestamp: now, sessionID: state.definition.id }),
    );
  },

  'experimental.session.list': (request, { world, project }) => {
    const query = request.query as {
      directory?: string;
      search?: string;
      start?: number;
      cursor?: number;
      limit?: number;
    };
    const rows = sessionRows(world, project, { search: query.search, directory: query.directory }, 'desc').filter(
      ({ time }) =>
        (query.start === undefined || time >= Number(query.start)) &&
        (query.cursor === undefined || time < Number(query.cursor)),
    );
    const limit = query.limit === undefined ? rows.length : Math.max(0, Number(query.limit));
    const data = rows.slice(0, limit).map(({ state }) => ({
      ...clientSession(world, state, project),
      project: { id: project.id, worktree: project.directory },
    }));
    return answered(jsonAnswer(200, data));
  },

  // The simulator runs no subagents, so there is never one to send to the background.
  'experimental.session.background': () => answered(jsonAnswer(200, false)),

  'experimental.controlPlane.moveSession': (request, { world, now }) => {
    const body = request.body as { sessionID: string; destination: { directory: string } };
    const state = existing(world, body.sessionID);
    if (!state) throw new MoveSessionError(`Session not found: ${body.sessionID}`);
    const location = { directory: body.destination.directory };
    return answered(
      NO_CONTENT,
      draft('session.next.moved', { timestamp: now, sessionID: state.definition.id, location }),
    );
  },
};
