/**
 * A scenario's questions read into definitions: those its sessions name as pending (`sessions[].questions`),
 * with generated content, and those written out in `questions:` (checked against the spec's QuestionV2Request).
 */
import type { Path } from '../kind.js';
import { undeclared } from '../../text/closest.js';
import type { Scenario } from '../../format/scenario-types.js';
import { reportDuplicates } from '../answers.js';
import type { ReadContext } from '../kind.js';
import { generatedQuestions } from './generate.js';
import type { QuestionSection } from './section.generated.js';
import type { QuestionDefinition } from './types.js';

/** Its own section, and the sessions that name questions as pending. */
export type QuestionSource = QuestionSection & Pick<Scenario, 'sessions'>;

export function readQuestions(source: QuestionSource, context: ReadContext): QuestionDefinition[] {
  const sessions = context.declared('session');
  const named = new Map<string, string>();
  for (const s of source.sessions ?? []) for (const id of s.questions ?? []) if (!named.has(id)) named.set(id, s.id);
  const written = (source.questions ?? []).map((q, i): QuestionDefinition => {
    const { appears, ...record } = q;
    const path: Path = ['questions', i];
    const id = record.id;
    const sessionID = record.sessionID;
    if (!sessions.has(sessionID))
      context.problem([...path, 'sessionID'], undeclared('session', sessionID, 'sessions', sessions));
    const owner = named.get(id);
    if (owner !== undefined && owner !== sessionID)
      context.problem(
        [...path, 'sessionID'],
        `question ${id} is pending in session ${owner} (its questions), not here`,
      );
    context.checkRecord('QuestionV2Request', record, path, `question ${id}`);
    return {
      record,
      appears: appears === undefined ? context.start : context.after(appears),
    };
  });
  reportDuplicates(
    written.map((q) => q.record.id),
    'questions',
    'question',
    context,
  );
  const ids = new Set(written.map((q) => q.record.id));
  const generated = [...named]
    .filter(([id]) => !ids.has(id))
    .map(([id, sessionID]): QuestionDefinition => ({
      record: { id, sessionID, questions: generatedQuestions(id) },
      appears: context.start,
    }));
  return [...generated, ...written];
}
