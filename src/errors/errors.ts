/**
 * The error bodies no one kind owns. API errors (here) speak the interface's dialect (`_tag` objects, or the
 * older `{name, data}`); `Sim…` errors (sim-errors.ts) report the simulator's own failures and never pretend
 * to be the API's. A kind's own errors live in its folder (`kinds/session/errors.ts`), and `api-errors.ts`
 * gathers them all, since a file the kinds import cannot import them back.
 */
import { TaggedError } from './tagged-error.js';

export { TaggedError } from './tagged-error.js';
export * from './sim-errors.js';
// Not `export *`: NamedError is the kinds' base to extend, not a body of the public API.
export { ForbiddenError, InternalServerError, BadRequest, NotFoundError } from './server-errors.js';

/** The real server's challenge on 401 (it speaks HTTP Basic when a password is set). */
export const BASIC_CHALLENGE = 'Basic realm="Secure Area"';

export class InvalidRequestError extends TaggedError {
  readonly _tag = 'InvalidRequestError';
  readonly status = 400;
  constructor(message: string, kind?: string, field?: string) {
    super({ message, kind, field });
  }
}

export class InvalidCursorError extends TaggedError {
  readonly _tag = 'InvalidCursorError';
  readonly status = 400;
  constructor(message: string) {
    super({ message });
  }
}

export class UnauthorizedError extends TaggedError {
  readonly _tag = 'UnauthorizedError';
  readonly status = 401;
  constructor(message = 'Authentication required') {
    super({ message });
    this.headers['www-authenticate'] = BASIC_CHALLENGE;
  }
}

export class ConflictError extends TaggedError {
  readonly _tag = 'ConflictError';
  readonly status = 409;
  constructor(resource: string, message: string) {
    super({ message, resource });
  }
}

export class UnknownError extends TaggedError {
  readonly _tag = 'UnknownError';
  readonly status = 500;
  constructor(ref: string, message = 'Unexpected server error. Check server logs for details.') {
    super({ message, ref });
  }
}

export class ServiceUnavailableError extends TaggedError {
  readonly _tag = 'ServiceUnavailableError';
  readonly status = 503;
  constructor(service: string, message: string) {
    super({ message, service });
  }
}
