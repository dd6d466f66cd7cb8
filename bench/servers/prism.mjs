// Prism alone: @stoplight/prism-http mocking the same spec inside a bare node:http server, examples mode,
// request validation on (as `prism mock` does).
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { createInstance, getHttpOperationsFromSpec } = require('@stoplight/prism-http');
const noop = () => {};
const logger = { fatal: noop, error: noop, warn: noop, info: noop, debug: noop, trace: noop, success: noop, child: () => logger };

const operations = await getHttpOperationsFromSpec(fileURLToPath(new URL('../../spec/session-agent.openapi.yaml', import.meta.url)));
const config = { checkSecurity: false, validateRequest: true, validateResponse: false, errors: false, upstreamProxy: undefined, isProxy: false, mock: { dynamic: false } };
const prism = createInstance(config, { logger });

createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  const result = await prism.request({ method: req.method.toLowerCase(), url: { path: url.pathname, query: Object.fromEntries(url.searchParams) }, headers: req.headers }, operations)();
  const output = result._tag === 'Right' ? result.right.output : { statusCode: 500, body: { error: result.left.message } };
  const body = JSON.stringify(output.body ?? null);
  res.writeHead(output.statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('ready\n'));
