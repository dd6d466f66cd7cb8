// The floor: node:http answering the simulator's own bytes (status, content-type, body) for each request
// the suite sends, read from a fixtures file the runner captured from the simulator. A POST body is read
// and JSON.parsed before the answer, as any real handler would.
// Usage: node bench/servers/bare-node.mjs PORT FIXTURES.json SET
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, file, set] = process.argv.slice(2);
const answers = new Map();
for (const fixture of JSON.parse(readFileSync(file, 'utf8'))[set] ?? []) {
  const body = Buffer.from(fixture.body, 'base64');
  answers.set(`${fixture.method} ${fixture.url}`, {
    status: fixture.status,
    headers: { 'content-type': fixture.contentType, 'content-length': body.length },
    body,
  });
}
const missing = Buffer.from('{"error":"no fixture"}');

createServer((req, res) => {
  const answer = answers.get(`${req.method} ${req.url}`);
  const send = () => {
    if (!answer) {
      res.writeHead(404, { 'content-type': 'application/json', 'content-length': missing.length });
      res.end(missing);
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };
  if (req.method === 'GET' || req.method === 'HEAD') {
    send();
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":"bad json"}');
      return;
    }
    send();
  });
}).listen(Number(port), '127.0.0.1');
