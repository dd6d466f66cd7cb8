// mockttp as a reverse proxy in front of an upstream, through its own API: a local server (getLocal) whose
// one rule forwards every request to UPSTREAM. thenForwardTo, not thenPassThrough: passing through sends a
// request on to the host it names, which works for requests sent through mockttp as a proxy, and mockttp
// rejects a plain request to its own port with it; thenForwardTo keeps the path and query and sends the
// request to the upstream instead (checked: with the upstream stopped, mockttp answers 502).
// recordTraffic off: mockttp otherwise keeps every request and answer for getSeenRequests(), which a load
// test would only grow (WireMock's request journal is off for the same reason).
// Usage: node bench/servers/mockttp.mjs PORT UPSTREAM_URL
import { getLocal } from 'mockttp';

const [port, upstream] = process.argv.slice(2);
if (!port || !upstream) {
  process.stderr.write('Usage: node bench/servers/mockttp.mjs PORT UPSTREAM_URL\n');
  process.exit(2);
}
const server = getLocal({ recordTraffic: false, suggestChanges: false });
await server.forAnyRequest().thenForwardTo(upstream);
// start(port) takes no address: mockttp listens on every interface (the suite only talks to it on 127.0.0.1).
await server.start(Number(port));
process.stderr.write(`mockttp forwarding http://127.0.0.1:${server.port} → ${upstream}\n`);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    server.stop().finally(() => process.exit(0));
  });
