// Baseline: bare node:http answering one fixed JSON body (the plugin list the simulator serves).
import { createServer } from 'node:http';

const body = JSON.stringify({
  location: { directory: '/home/dev/acme-web', project: { id: '407a151faf7088522a029c563e779174ca135d19', directory: '/home/dev/acme-web' } },
  data: [{ id: 'agent' }, { id: 'command' }, { id: 'skill' }, { id: 'models-dev' }, { id: 'config-project' }, { id: 'anthropic' }],
});
createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('ready\n'));
