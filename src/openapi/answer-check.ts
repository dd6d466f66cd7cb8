/**
 * Checks an answer against what the spec declares for its operation: a declared status, a body where one
 * is declared (and none where none is), and a body valid against that status's schema.
 */
import { keepBounded } from '../caches/bounded-map.js';
import { answerBody, jsonText, type Answer } from '../exchange/exchange.js';
import type { OperationDefinition } from './openapi.js';
import type { Violation } from './violation.js';

export function checkAnswer(operation: OperationDefinition, status: number, body: unknown): Violation[] {
  const response = operation.responses.get(status);
  if (!response)
    return [
      { side: 'response', in: 'status', message: `status ${status} is not declared by ${operation.operationId}` },
    ];
  if (!response.check)
    return body === undefined
      ? []
      : [{ side: 'response', in: 'body', message: `status ${status} declares no body, but one was sent` }];
  if (body === undefined)
    return [{ side: 'response', in: 'body', message: `status ${status} declares a body, but none was sent` }];
  return response.check(body).map((d): Violation => ({
    side: 'response',
    in: 'body',
    ...(d.path ? { field: d.path } : {}),
    message: `${d.path || '(body)'} ${d.message}`,
  }));
}

interface Verdict {
  operation: OperationDefinition;
  status: number;
  violations: Violation[];
}

/** Checks of bodies served again unchanged (recorded or forwarded answers), by body: each is checked once per operation and status. */
const servedChecks = new WeakMap<object, Verdict>();

/**
 * Checks of answers by their text: a page of fifty messages took ten times longer to check than to make, and
 * a client asks for the same page (or the same shell, while it runs) again and again. The same text is the
 * same JSON value, so its check is the same. Looking a text up costs a hash of it, well under a check even
 * for a small answer; small and large texts are kept apart so that large ones cannot hold the memory of a
 * thousand small ones.
 */
const SMALL_ANSWER = 2048;
/** Texts past this are checked each time: 64 of them stay under 64 MiB however large answers grow. */
const LARGEST_REMEMBERED = 1024 * 1024;
const SMALL_CHECKS_CAPACITY = 1024;
const LARGE_CHECKS_CAPACITY = 64;
const smallChecks = new Map<string, Verdict>();
const largeChecks = new Map<string, Verdict>();

/** The answer's violations of the spec (`checkAnswer`), remembered where the same answer comes again. */
export function checkedAnswer(operation: OperationDefinition, answer: Answer): Violation[] {
  const body = answerBody(answer);
  if (typeof body !== 'object' || body === null) return checkAnswer(operation, answer.status, body);
  const verdict = (known: Verdict | undefined): Verdict =>
    known && known.operation === operation && known.status === answer.status
      ? known
      : { operation, status: answer.status, violations: checkAnswer(operation, answer.status, body) };
  if (answer.kind !== 'drop' && answer.served) {
    const known = servedChecks.get(body);
    const found = verdict(known);
    if (found !== known) servedChecks.set(body, found);
    return found.violations;
  }
  if (answer.kind !== 'json') return checkAnswer(operation, answer.status, body);
  const text = answer.status === 204 ? '' : jsonText(answer);
  if (text.length > LARGEST_REMEMBERED) return checkAnswer(operation, answer.status, body);
  const [checks, capacity] =
    text.length < SMALL_ANSWER ? [smallChecks, SMALL_CHECKS_CAPACITY] : [largeChecks, LARGE_CHECKS_CAPACITY];
  const known = checks.get(text);
  if (known && known.operation === operation && known.status === answer.status) return known.violations;
  return keepBounded(checks, capacity, text, verdict(known)).violations;
}
