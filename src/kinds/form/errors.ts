/** A form's errors. */
import { TaggedError } from '../../errors/tagged-error.js';

export class FormInvalidAnswerError extends TaggedError {
  readonly _tag = 'FormInvalidAnswerError';
  readonly status = 400;
  constructor(id: string, message: string) {
    super({ id, message });
  }
}

export class FormNotFoundError extends TaggedError {
  readonly _tag = 'FormNotFoundError';
  readonly status = 404;
  constructor(id: string) {
    super({ id, message: `Form not found: ${id}` });
  }
}

export class FormAlreadySettledError extends TaggedError {
  readonly _tag = 'FormAlreadySettledError';
  readonly status = 409;
  constructor(id: string) {
    super({ id, message: `Form already settled: ${id}` });
  }
}
