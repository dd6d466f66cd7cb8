/**
 * The errors the real server's document declares beyond the interface document's, in its two dialects:
 * `_tag` objects (the /api/ routes), and the older `{name, data: {message, …}}` objects of some /experimental/
 * routes. Each class is named as its tag, and its status is the one the real server's document gives it.
 */
import { TaggedError } from './tagged-error.js';

/**
 * The older dialect: `{name, data: {message, …}}` with no `_tag`, as ProjectCopyError speaks it. Exported for
 * the kinds whose routes speak it (workspace, worktree), which keep their errors in their own folders.
 */
export abstract class NamedError extends TaggedError {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super({ message, ...data });
  }

  override toBody(): Record<string, unknown> {
    const data = Object.fromEntries(Object.entries(this.fields).filter(([, v]) => v !== undefined));
    return { name: this._tag, data };
  }
}

/** A PTY connect-token request without the `x-opencode-ticket: 1` header, or a ticket used twice. */
export class ForbiddenError extends TaggedError {
  readonly _tag = 'ForbiddenError';
  readonly status = 403;
  constructor(message = 'Invalid PTY connect token request') {
    super({ message });
  }
}

/** The HTTP framework's own 500 on some /experimental/ routes: a bare `{_tag}`, with nothing to say. */
export class InternalServerError extends TaggedError {
  readonly _tag = 'InternalServerError';
  readonly status = 500;
  constructor(message = 'Internal server error') {
    super({ message });
  }
  override toBody(): Record<string, unknown> {
    return { _tag: this._tag };
  }
}

/** Bad input on the /experimental/ routes that declare no InvalidRequestError: `{name: "BadRequest", data}`. */
export class BadRequest extends NamedError {
  readonly _tag = 'BadRequest';
  readonly status = 400;
  constructor(message: string, kind?: 'Params' | 'Headers' | 'Query' | 'Body' | 'Payload') {
    super(message, { kind });
  }
}

export class NotFoundError extends NamedError {
  readonly _tag = 'NotFoundError';
  readonly status = 404;
}
