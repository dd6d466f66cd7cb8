import { TaggedError } from '../../errors/tagged-error.js';

export class PtyNotFoundError extends TaggedError {
  readonly _tag = 'PtyNotFoundError';
  readonly status = 404;
  constructor(ptyID: string) {
    super({ ptyID, message: `PTY session not found: ${ptyID}` });
  }
}
