/**
 * Run by `npm ci` (the prepare script) after compiling: fills the start-up caches (parsed spec, Prism's
 * operations, the default scenario), so even the first `npm start` answers in under a second.
 */
import { createApp } from './hosts/app.js';

await createApp({ scenario: 'default', log: () => {} });
process.stdout.write('session-agent-sim: start-up caches ready\n');
