// The official client's event subscription across dropped connections: it reconnects after each failure and
// is greeted again. Run against a simulator whose rules drop the stream (README, "Stubs and faults").
//
//   node examples/reconnect.mjs http://127.0.0.1:4010
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';

const client = createOpencodeClient({ baseUrl: process.argv[2] ?? 'http://127.0.0.1:4010' });
const controller = new AbortController();
let failures = 0;
const { stream } = await client.v2.event.subscribe({ signal: controller.signal, onSseError: () => failures++ });
let greetings = 0;
for await (const event of stream) if (event.type === 'server.connected' && ++greetings === 3) break;
controller.abort();
console.log(`greeted ${greetings} times, after ${failures} dropped connections`);
