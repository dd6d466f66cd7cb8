// A static server for public/, on loopback. PORT=0 takes a free port; the URL is printed once listening.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const file = join('public', path === '/' ? 'index.html' : path);
  if (!/^\/[\w./-]*$/.test(path) || path.includes('..') || !existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
});
server.listen(Number(process.env.PORT ?? 5173), '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${server.address().port}/`);
});
