// The simulator embedded as a library: a host Express 5 app mounting createApp(), as a user's dev server
// would. SCENARIO "none" gives the library default (the spec's examples alone), like `mock --scenario none`.
// The host is set up as bare-express.mjs is (no X-Powered-By), so that both send the same headers: with it,
// every answer would carry one header more, and Node writes a head whose headers were set before in a slower way.
// Usage: node bench/servers/sim-embedded.mjs PORT SCENARIO
import express from 'express';
import { createApp } from '../../dist/app-exports.js';

const [port, scenario] = process.argv.slice(2);
const host = express();
host.disable('x-powered-by');
host.use(await createApp(scenario === 'none' ? {} : { scenario }));
host.listen(Number(port), '127.0.0.1');
