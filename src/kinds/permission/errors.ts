import { TaggedError } from '../../errors/tagged-error.js';

export class PermissionNotFoundError extends TaggedError {
  readonly _tag = 'PermissionNotFoundError';
  readonly status = 404;
  constructor(requestID: string) {
    super({ requestID, message: `Permission request not found: ${requestID}` });
  }
}
