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
import {
  PtyNotFoundError,
  PermissionNotFoundError,
  ProviderNotFoundError,
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
} from './all-errors.js';
import * as kindErrors from './all-errors.js';

export * from './all-errors.js';

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
  UnauthorizedError,
  ConflictError,
  UnknownError,
  ServiceUnavailableError,
  ...SERVER_ERRORS,
  ...kindErrors,
} as const;

export type ApiErrorTag = keyof typeof API_ERRORS;
