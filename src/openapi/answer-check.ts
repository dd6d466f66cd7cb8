/**
 * Checks an answer against what the spec declares for its operation: a declared status, a body where one
 * is declared (and none where none is), and a body valid against that status's schema.
 */
import type { OperationDefinition } from './openapi.js';

export function checkAnswer(operation: OperationDefinition, status: number, body: unknown): string[] {
  const response = operation.responses.get(status);
  if (!response) return [`status ${status} is not declared by ${operation.operationId}`];
  if (!response.check) return body === undefined ? [] : [`status ${status} declares no body, but one was sent`];
  if (body === undefined) return [`status ${status} declares a body, but none was sent`];
  return response.check(body).map((d) => `${d.path || '(body)'} ${d.message}`);
}
