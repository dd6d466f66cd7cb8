/**
 * What asking a question makes happen, as event drafts: a session turn can ask mid-turn with `askQuestion`
 * (the caller commits what it returns), and the question waits for a reply or a rejection.
 */
import { draft, type EventDraft } from '../../state/events.js';
import type { World } from '../../state/world.js';
import { ensureRoom } from '../limits.js';
import { MAX_QUESTIONS } from './limits.js';
import type { QuestionInfo, QuestionRecord, QuestionState } from './types.js';

export interface QuestionAsk {
  sessionID: string;
  questions: QuestionInfo[];
  /** The question tool's call, when a tool asks. */
  tool?: { messageID: string; callID: string };
  /** Generated (`que_…`, ascending) when absent. */
  id?: string;
}

/** Questions that are waiting (or will be asked), the ones a partition's bound counts. */
export function openQuestions(world: World): QuestionState[] {
  return [...world.questions.values()].filter((q) => q.status === 'pending' || q.status === 'scheduled');
}

/** The pending questions of one session, or of every session when none is named, oldest first. */
export function pendingQuestions(world: World, sessionID?: string): QuestionRecord[] {
  return [...world.questions.values()]
    .filter((q) => q.status === 'pending' && (sessionID === undefined || q.record.sessionID === sessionID))
    .map((q) => q.record);
}

/**
 * Asks a question in a session: `question.v2.asked` with the request as the client types it. Throws
 * SimResourceLimitError when the partition holds its bound of open questions.
 */
export function askQuestion(world: World, now: number, ask: QuestionAsk): { id: string; events: EventDraft[] } {
  ensureRoom(openQuestions(world).length, MAX_QUESTIONS, 'question');
  const id = ask.id ?? world.ids.ascending('que_', now);
  const record: QuestionRecord = { id, sessionID: ask.sessionID, questions: ask.questions };
  if (ask.tool) record.tool = { messageID: ask.tool.messageID, callID: ask.tool.callID };
  return { id, events: [draft('question.v2.asked', record)] };
}
