/** Warp's VcsApplyError is here too: warping a workspace is what applies its changes. */
import { NamedError } from '../../errors/server-errors.js';

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
