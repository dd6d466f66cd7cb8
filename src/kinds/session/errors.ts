/** A session's errors, and a message's within it. */
import { TaggedError } from '../../errors/tagged-error.js';
import { NamedError } from '../../errors/server-errors.js';

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

export class SessionBusyError extends TaggedError {
  readonly _tag = 'SessionBusyError';
  readonly status = 409;
  constructor(sessionID: string) {
    super({ sessionID, message: `Session is busy: ${sessionID}` });
  }
}

export class MoveSessionError extends NamedError {
  readonly _tag = 'MoveSessionError';
  readonly status = 400;
}
