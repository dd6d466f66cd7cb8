/**
 * The errors the real server's document declares beyond the interface document's, in its two dialects:
 * `_tag` objects (the /api/ routes), and the older `{name, data: {message, …}}` objects of some /experimental/
 * routes. Each class is named as its tag, and its status is the one the real server's document gives it.
 */
import { TaggedError } from './tagged-error.js';

/** The older dialect: `{name, data: {message, …}}` with no `_tag`, as ProjectCopyError speaks it. */
abstract class NamedError extends TaggedError {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super({ message, ...data });
  }

  override toBody(): Record<string, unknown> {
    const data = Object.fromEntries(Object.entries(this.fields).filter(([, v]) => v !== undefined));
    return { name: this._tag, data };
  }
}

export class PtyNotFoundError extends TaggedError {
  readonly _tag = 'PtyNotFoundError';
  readonly status = 404;
  constructor(ptyID: string) {
    super({ ptyID, message: `PTY session not found: ${ptyID}` });
  }
}

export class PermissionNotFoundError extends TaggedError {
  readonly _tag = 'PermissionNotFoundError';
  readonly status = 404;
  constructor(requestID: string) {
    super({ requestID, message: `Permission request not found: ${requestID}` });
  }
}

export class ProviderNotFoundError extends TaggedError {
  readonly _tag = 'ProviderNotFoundError';
  readonly status = 404;
  constructor(providerID: string) {
    super({ providerID, message: `Provider not found: ${providerID}` });
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

export class MoveSessionError extends NamedError {
  readonly _tag = 'MoveSessionError';
  readonly status = 400;
}

export class WorkspaceCreateError extends NamedError {
  readonly _tag = 'WorkspaceCreateError';
  readonly status = 400;
}

export class WorkspaceWarpError extends NamedError {
  readonly _tag = 'WorkspaceWarpError';
  readonly status = 400;
}

export class VcsApplyError extends NamedError {
  readonly _tag = 'VcsApplyError';
  readonly status = 400;
  constructor(message: string, reason: 'non-git' | 'not-clean' = 'non-git') {
    super(message, { reason });
  }
}

/** The worktree routes' failures, one name per step that failed (`WorktreeError` in the real server's document). */
abstract class WorktreeError extends NamedError {
  readonly status = 400;
}

export class WorktreeNotGitError extends WorktreeError {
  readonly _tag = 'WorktreeNotGitError';
}
export class WorktreeNameGenerationFailedError extends WorktreeError {
  readonly _tag = 'WorktreeNameGenerationFailedError';
}
export class WorktreeCreateFailedError extends WorktreeError {
  readonly _tag = 'WorktreeCreateFailedError';
}
export class WorktreeStartCommandFailedError extends WorktreeError {
  readonly _tag = 'WorktreeStartCommandFailedError';
}
export class WorktreeRemoveFailedError extends WorktreeError {
  readonly _tag = 'WorktreeRemoveFailedError';
}
export class WorktreeResetFailedError extends WorktreeError {
  readonly _tag = 'WorktreeResetFailedError';
}
export class WorktreeListFailedError extends WorktreeError {
  readonly _tag = 'WorktreeListFailedError';
}

export const SERVER_ERRORS = {
  PtyNotFoundError,
  PermissionNotFoundError,
  ProviderNotFoundError,
  ForbiddenError,
  InternalServerError,
  BadRequest,
  NotFoundError,
  MoveSessionError,
  WorkspaceCreateError,
  WorkspaceWarpError,
  VcsApplyError,
  WorktreeNotGitError,
  WorktreeNameGenerationFailedError,
  WorktreeCreateFailedError,
  WorktreeStartCommandFailedError,
  WorktreeRemoveFailedError,
  WorktreeResetFailedError,
  WorktreeListFailedError,
} as const;
