// Express 5 answering the simulator's own bytes, one route per fixture; a POST goes through express.json()
// first. ETag and X-Powered-By are off, as in the simulator's own Express app, so both send the same headers.
// Usage: node bench/servers/bare-express.mjs PORT FIXTURES.json SET
import { readFileSync } from 'node:fs';
import express from 'express';

const [port, file, set] = process.argv.slice(2);
const app = express();
app.disable('etag');
app.disable('x-powered-by');
for (const fixture of JSON.parse(readFileSync(file, 'utf8'))[set] ?? []) {
  const url = new URL(fixture.url, 'http://x');
  // Express routes on the path alone; a fixture with a query string would shadow another of the same path.
  if (url.search) continue;
  const body = Buffer.from(fixture.body, 'base64');
  // setHeader, not res.set: Express would append "; charset=utf-8" to the simulator's content-type.
  const answer = (_req, res) => {
    res.status(fixture.status).setHeader('content-type', fixture.contentType);
    res.send(body);
  };
  if (fixture.method === 'POST') app.post(url.pathname, express.json(), answer);
  else app.get(url.pathname, answer);
}
app.listen(Number(port), '127.0.0.1');
