/**
 * What a scenario session's history stands for on its event log: the durable event that made each message
 * (an agent switch, a prompt, a model step, …), numbered after its `session.created` at 0, so that reading
 * the log from any sequence is gap-free whether the session was scripted or created by a client.
 */
import type { ProjectContext } from '../../openapi/location.js';
import type { World } from '../../state/world.js';
import { clientSession, createdAt } from './info.js';
import type { MessageRecord, SessionState } from './types.js';

type JsonObject = Record<string, unknown>;

function eventOf(sessionID: string, m: MessageRecord): { type: string; data: JsonObject } {
  const base = { timestamp: m.time.created, sessionID };
  switch (m.type) {
    case 'agent-switched':
      return { type: 'session.next.agent.switched', data: { ...base, messageID: m.id, agent: m.agent } };
    case 'model-switched':
      return { type: 'session.next.model.switched', data: { ...base, messageID: m.id, model: m.model } };
    case 'user': {
      const prompt = {
        text: m.text,
        ...(m.files ? { files: m.files } : {}),
        ...(m.agents ? { agents: m.agents } : {}),
      };
      return { type: 'session.next.prompted', data: { ...base, messageID: m.id, prompt, delivery: 'steer' } };
    }
    case 'assistant':
      return {
        type: 'session.next.step.started',
        data: { ...base, assistantMessageID: m.id, agent: m.agent, model: m.model },
      };
    case 'shell':
      return {
        type: 'session.next.shell.started',
        data: { ...base, messageID: m.id, callID: m.callID, command: m.command },
      };
    case 'compaction':
      return {
        type: 'session.next.compaction.ended',
        data: { ...base, messageID: m.id, reason: m.reason, text: m.summary, recent: m.recent },
      };
    default:
      // A synthetic or system message: text the session was given.
      return {
        type: 'session.next.synthetic',
        data: { ...base, messageID: m.id, text: typeof m.text === 'string' ? m.text : '' },
      };
  }
}

export function sessionHistory(
  world: World,
  session: SessionState,
  project: ProjectContext,
): Array<{ type: string; data: JsonObject; time: number }> {
  const sessionID = session.definition.id;
  const created = createdAt(world, session);
  const info = clientSession(world, session, project, created);
  return [
    { type: 'session.created', data: { sessionID, info }, time: created },
    ...session.messages.map((m) => ({ ...eventOf(sessionID, m), time: m.time.created })),
  ];
}
