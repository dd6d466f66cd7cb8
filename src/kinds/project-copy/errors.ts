import { TaggedError } from '../../errors/tagged-error.js';

/** The one error of the interface without a `_tag`: `{name, data: {message, forceRequired}}`. */
export class ProjectCopyError extends TaggedError {
  readonly _tag = 'ProjectCopyError';
  readonly status = 400;
  constructor(
    message: string,
    readonly forceRequired = false,
  ) {
    super({ message });
  }

  override toBody(): Record<string, unknown> {
    return { name: this._tag, data: { message: this.message, forceRequired: this.forceRequired } };
  }
}
