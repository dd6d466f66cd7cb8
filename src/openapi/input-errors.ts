/**
 * Turns request violations into the one error the operation declares for bad input (the interface's rule 1:
 * an operation returns only the errors listed for it). Which error that is comes from the spec, not a table.
 */
import { BadRequest, InvalidCursorError, InvalidRequestError, type TaggedError } from '../errors/errors.js';
import type { OperationDefinition } from './openapi.js';
import type { Violation, ViolationPlace } from './violation.js';

/**
 * The kinds the real server puts in InvalidRequestError.kind for schema failures. Request validation finds
 * violations in these places only: a status or a route is never a request the client can fix.
 */
const KIND_BY_PLACE: Partial<Record<ViolationPlace, string>> = { path: 'Params', query: 'Query', body: 'Payload' };

/**
 * The errors the kinds declare for input that names them (their catalog gathers them): this folder sits below
 * the kinds, so it takes them as given rather than naming a kind.
 */
export interface KindInputErrors {
  /**
   * By path parameter (`sessionID`): where an operation declares no InvalidRequestError, an id that cannot
   * exist is best told as "not found": that is declared, and it is the truth.
   */
  readonly notFound: Readonly<Record<string, (id: string) => TaggedError>>;
  /** By `_tag`: a kind's own error for bad input, for the operations that declare it instead. */
  readonly badInput: Readonly<Record<string, (message: string, pathParams: Record<string, string>) => TaggedError>>;
}

export function toDeclaredError(
  operation: OperationDefinition,
  violations: Violation[],
  pathParams: Record<string, string>,
  kinds: KindInputErrors,
): TaggedError {
  const first = violations[0];
  if (!first) throw new Error('toDeclaredError needs at least one violation');
  const message = violations.map((v) => v.message).join('; ');

  if (operation.inputErrorTag === 'InvalidRequestError') {
    return new InvalidRequestError(message, KIND_BY_PLACE[first.in], first.field);
  }
  if (first.in === 'path' && first.field) {
    const notFound = kinds.notFound[first.field]?.(pathParams[first.field] ?? '');
    if (notFound && operation.declaredTags.has(notFound._tag)) return notFound;
    const addressed = notFoundOfAddressed(operation, first, pathParams, kinds);
    if (addressed) return addressed;
  }
  const own = kinds.badInput[operation.inputErrorTag];
  if (own) return own(message, pathParams);
  switch (operation.inputErrorTag) {
    case 'InvalidCursorError':
      return new InvalidCursorError(message);
    case 'BadRequest':
      return new BadRequest(message, KIND_BY_PLACE[first.in] as 'Params' | 'Query' | 'Payload' | undefined);
    default:
      throw new Error(`${operation.operationId}: no way to report bad input as ${operation.inputErrorTag}`);
  }
}

/**
 * A malformed parent id (a session under which a form is answered) whose own not-found error is undeclared:
 * the addressed child cannot exist under it either, so its not-found error is the truthful declared answer.
 * Blaming the body instead (FormInvalidAnswerError) would send the client to fix an answer that was fine.
 * The constructors word their message around the child's id, so it is replaced to name the id actually wrong.
 */
function notFoundOfAddressed(
  operation: OperationDefinition,
  violation: Violation,
  pathParams: Record<string, string>,
  kinds: KindInputErrors,
): TaggedError | undefined {
  for (const param of [...operation.pathParams].reverse()) {
    if (param.name === violation.field) continue;
    const notFound = kinds.notFound[param.name]?.(pathParams[param.name] ?? '');
    if (!notFound || !operation.declaredTags.has(notFound._tag)) continue;
    const message = `${notFound.message}: ${violation.message}`;
    notFound.fields.message = message;
    notFound.message = message;
    return notFound;
  }
  return undefined;
}
