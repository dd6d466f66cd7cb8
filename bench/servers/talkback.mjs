// talkback replaying the tapes in a folder, recording off: its documented request handler
// (talkback.requestHandler) in a node:http server on 127.0.0.1, answering as its own server does (the whole
// body read, then handle()). Its standalone server has no listen-address option and binds every interface.
// Tapes match on method, URL and body only (allowHeaders: []), as the simulator's replay does.
// Usage: node bench/servers/talkback.mjs PORT TAPES_DIR
import { createServer } from 'node:http';
import talkback from 'talkback';

const [port, path] = process.argv.slice(2);
const handler = await talkback.requestHandler({
  host: 'http://127.0.0.1:9',
  path,
  record: talkback.Options.RecordMode.DISABLED,
  fallbackMode: talkback.Options.FallbackMode.NOT_FOUND,
  allowHeaders: [],
  silent: true,
  summary: false,
});
createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    try {
      const answer = await handler.handle({
        headers: req.headers,
        url: req.url,
        method: req.method,
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    } catch {
      res.statusCode = 500;
      res.end();
    }
  });
}).listen(Number(port), '127.0.0.1');
