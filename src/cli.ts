/**
 * The `session-agent-sim` command (bin/session-agent-sim.js imports this file, or dist/cli.js compiled).
 * The work is in cli/: commands.ts and options.ts list what the command line accepts, main.ts runs it.
 */
import { main } from './cli/main.js';

export { main };

const exitCode = await main(process.argv.slice(2));
if (exitCode >= 0) process.exit(exitCode);
