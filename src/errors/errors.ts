/**
 * Every error body the simulator can send. API errors (here) speak the interface's dialect (`_tag` objects, or
 * ProjectCopyError's `{name, data}`); `Sim…` errors (sim-errors.ts) report the simulator's own failures and
 * never pretend to be the API's. Both are exported from here.
 */
import { SERVER_ERRORS } from './server-errors.js';
import { TaggedError } from './tagged-error.js';

export { TaggedError } from './tagged-error.js';
export * from './sim-errors.js';
export * from './server-errors.js';

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

export class FormInvalidAnswerError extends TaggedError {
  readonly _tag = 'FormInvalidAnswerError';
  readonly status = 400;
  constructor(id: string, message: string) {
    super({ id, message });
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

export class SessionNotFoundError extends TaggedError {
  readonly _tag = 'SessionNotFoundError';
  readonly status = 404;
  constructor(sessionID: string) {
    super({ sessionID, message: `Session not found: ${sessionID}` });
  }
}

export class MessageNotFoundError extends TaggedError {
  readonly _tag = 'MessageNotFoundError';
  readonly status = 404;
  constructor(sessionID: string, messageID: string) {
    super({ sessionID, messageID, message: `Message not found: ${messageID}` });
  }
}

export class QuestionNotFoundError extends TaggedError {
  readonly _tag = 'QuestionNotFoundError';
  readonly status = 404;
  constructor(requestID: string) {
    super({ requestID, message: `Question request not found: ${requestID}` });
  }
}

export class FormNotFoundError extends TaggedError {
  readonly _tag = 'FormNotFoundError';
  readonly status = 404;
  constructor(id: string) {
    super({ id, message: `Form not found: ${id}` });
  }
}

export class ShellNotFoundError extends TaggedError {
  readonly _tag = 'ShellNotFoundError';
  readonly status = 404;
  constructor(id: string) {
    super({ id, message: `Shell command not found: ${id}` });
  }
}

export class SessionBusyError extends TaggedError {
  readonly _tag = 'SessionBusyError';
  readonly status = 409;
  constructor(sessionID: string) {
    super({ sessionID, message: `Session is busy: ${sessionID}` });
  }
}

export class ConflictError extends TaggedError {
  readonly _tag = 'ConflictError';
  readonly status = 409;
  constructor(resource: string, message: string) {
    super({ message, resource });
  }
}

export class FormAlreadySettledError extends TaggedError {
  readonly _tag = 'FormAlreadySettledError';
  readonly status = 409;
  constructor(id: string) {
    super({ id, message: `Form already settled: ${id}` });
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

/** The one error of the interface without a `_tag`: `{name, data: {message, forceRequired}}`. */
export class ProjectCopyError extends TaggedError {
  readonly _tag = 'ProjectCopyError';
  readonly status = 400;
  constructor(
    message: string,
    readonly forceRequired = false,
  ) {
    super({ message });
  }

  override toBody(): Record<string, unknown> {
    return { name: this._tag, data: { message: this.message, forceRequired: this.forceRequired } };
  }
}

/** API error classes by `_tag`, for code that picks an error from what the spec declares. */
export const API_ERRORS = {
  InvalidRequestError,
  InvalidCursorError,
  FormInvalidAnswerError,
  UnauthorizedError,
  SessionNotFoundError,
  MessageNotFoundError,
  QuestionNotFoundError,
  FormNotFoundError,
  ShellNotFoundError,
  SessionBusyError,
  ConflictError,
  FormAlreadySettledError,
  UnknownError,
  ServiceUnavailableError,
  ProjectCopyError,
  ...SERVER_ERRORS,
} as const;

export type ApiErrorTag = keyof typeof API_ERRORS;
