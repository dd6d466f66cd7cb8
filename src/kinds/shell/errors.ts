import { TaggedError } from '../../errors/tagged-error.js';

export class ShellNotFoundError extends TaggedError {
  readonly _tag = 'ShellNotFoundError';
  readonly status = 404;
  constructor(id: string) {
    super({ id, message: `Shell command not found: ${id}` });
  }
}
