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
} from './errors.js';
import { BadRequest, ForbiddenError, InternalServerError, NotFoundError } from './server-errors.js';
import { FormAlreadySettledError, FormInvalidAnswerError, FormNotFoundError } from './kinds/form/errors.js';
import { ProviderNotFoundError } from './kinds/model/errors.js';
import { PermissionNotFoundError } from './kinds/permission/errors.js';
import { ProjectCopyError } from './kinds/project-copy/errors.js';
import { PtyNotFoundError } from './kinds/pty/errors.js';
import { QuestionNotFoundError } from './kinds/question/errors.js';
import {
  MessageNotFoundError,
  MoveSessionError,
  SessionBusyError,
  SessionNotFoundError,
} from './kinds/session/errors.js';
import { ShellNotFoundError } from './kinds/shell/errors.js';
import { VcsApplyError, WorkspaceCreateError, WorkspaceWarpError } from './kinds/workspace/errors.js';
import {
  WorktreeCreateFailedError,
  WorktreeListFailedError,
  WorktreeNameGenerationFailedError,
  WorktreeNotGitError,
  WorktreeRemoveFailedError,
  WorktreeResetFailedError,
  WorktreeStartCommandFailedError,
} from './kinds/worktree/errors.js';

export * from './kinds/form/errors.js';
export * from './kinds/model/errors.js';
export * from './kinds/permission/errors.js';
export * from './kinds/project-copy/errors.js';
export * from './kinds/pty/errors.js';
export * from './kinds/question/errors.js';
export * from './kinds/session/errors.js';
export * from './kinds/shell/errors.js';
export * from './kinds/workspace/errors.js';
export * from './kinds/worktree/errors.js';

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
