import { TaggedError } from '../../errors/tagged-error.js';

export class QuestionNotFoundError extends TaggedError {
  readonly _tag = 'QuestionNotFoundError';
  readonly status = 404;
  constructor(requestID: string) {
    super({ requestID, message: `Question request not found: ${requestID}` });
  }
}
