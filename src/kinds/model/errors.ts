import { TaggedError } from '../../errors/tagged-error.js';

export class ProviderNotFoundError extends TaggedError {
  readonly _tag = 'ProviderNotFoundError';
  readonly status = 404;
  constructor(providerID: string) {
    super({ providerID, message: `Provider not found: ${providerID}` });
  }
}
