import type { CommandName } from './commands.js';

/** A command line the CLI cannot run: said in a sentence on stderr with a pointer to the help, exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** Whose help to point at; undefined points at the overview. */
    readonly command: CommandName | undefined,
  ) {
    super(message);
  }
}
