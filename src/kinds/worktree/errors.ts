import { NamedError } from '../../errors/server-errors.js';

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
