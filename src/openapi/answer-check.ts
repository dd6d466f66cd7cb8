/**
 * Checks an answer against what the spec declares for its operation: a declared status, a body where one
 * is declared (and none where none is), and a body valid against that status's schema.
 */
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
