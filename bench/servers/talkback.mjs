// talkback through its documented request handler (talkback.requestHandler) in a node:http server on
// 127.0.0.1, answering as its own server does (the whole body read, then handle()). Its standalone server has
// no listen-address option and binds every interface.
// Replay (no UPSTREAM): the tapes in a folder, recording off. Tapes match on method, URL and body only
// (allowHeaders: []), as the simulator's replay does.
// Record (UPSTREAM given): in front of the upstream, in the mode that records every exchange. talkback has
// three: NEW proxies a request only while no tape matches it, and from then on replays that tape (one write per
// distinct request, then no upstream at all); OVERWRITE proxies every request and writes its tape again each
// time; DISABLED only replays. (`RecordMode.ALL` is the list of the three, for validating a mode, not a mode.)
// OVERWRITE is the one that, like the simulator's record, sends every request upstream and writes what came
// back; it rewrites the request's tape file rather than appending, so the folder holds one tape per distinct
// request (a few more where the first requests raced each other before any tape existed).
// Usage: node bench/servers/talkback.mjs PORT TAPES_DIR [UPSTREAM_URL]
import { createServer } from 'node:http';
import talkback from 'talkback';

const [port, path, upstream] = process.argv.slice(2);
const handler = await talkback.requestHandler({
  host: upstream ?? 'http://127.0.0.1:9',
  path,
  record: upstream ? talkback.Options.RecordMode.OVERWRITE : talkback.Options.RecordMode.DISABLED,
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
