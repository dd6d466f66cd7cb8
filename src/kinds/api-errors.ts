/**
 * Every error body of the interface, the kinds' own and the cross-cutting ones, by `_tag`. A root file above
 * the kinds, because `errors.ts`, which every kind imports, cannot import them back; the public API
 * (`index.ts`) re-exports it, so the kinds' classes keep the names they had at the root.
 */
import {
  ConflictError,
  InvalidCursorError,
  InvalidRequestError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnknownError,
} from '../errors/errors.js';
import { BadRequest, ForbiddenError, InternalServerError, NotFoundError } from '../errors/server-errors.js';
import { FormAlreadySettledError, FormInvalidAnswerError, FormNotFoundError } from './form/errors.js';
import { ProviderNotFoundError } from './model/errors.js';
import { PermissionNotFoundError } from './permission/errors.js';
import { ProjectCopyError } from './project-copy/errors.js';
import { PtyNotFoundError } from './pty/errors.js';
import { QuestionNotFoundError } from './question/errors.js';
import { MessageNotFoundError, MoveSessionError, SessionBusyError, SessionNotFoundError } from './session/errors.js';
import { ShellNotFoundError } from './shell/errors.js';
import { VcsApplyError, WorkspaceCreateError, WorkspaceWarpError } from './workspace/errors.js';
import {
  WorktreeCreateFailedError,
  WorktreeListFailedError,
  WorktreeNameGenerationFailedError,
  WorktreeNotGitError,
  WorktreeRemoveFailedError,
  WorktreeResetFailedError,
  WorktreeStartCommandFailedError,
} from './worktree/errors.js';

export * from './form/errors.js';
export * from './model/errors.js';
export * from './permission/errors.js';
export * from './project-copy/errors.js';
export * from './pty/errors.js';
export * from './question/errors.js';
export * from './session/errors.js';
export * from './shell/errors.js';
export * from './workspace/errors.js';
export * from './worktree/errors.js';

/** The errors the real server's document declares beyond the interface document's. */
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
