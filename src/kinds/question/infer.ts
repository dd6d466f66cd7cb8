/**
 * Questions from traffic (scenario-from, the question kind's part): those listed pending, asked later when an
 * event or an earlier listing says so. The sessions they name must be declared: one the session kind did not
 * infer is added here. (A question answered but never listed is the session kind's: `sessions[].questions`.)
 */
import type { Timeline } from '../inference.js';
import type { InferenceSoFar, Inferred } from '../inference.js';
import { undeclaredSessions } from '../inference.js';
import { pendingRequests } from '../permission/infer.js';

const LISTINGS = new Set(['v2.session.question.list', 'v2.question.request.list']);

export function inferQuestions(timeline: Timeline, inference: InferenceSoFar): Inferred {
  // No operation creates a question: every one listed was asked by an agent.
  const questions = pendingRequests(timeline, '', LISTINGS, 'question.v2.asked');
  return questions.length
    ? {
        questions,
        sessions: undeclaredSessions(questions, inference.sessions ?? [], 'declared for its pending request'),
      }
    : {};
}
