// One prompt's turn, as an app built on the official client watches it: the events of its session on the
// stream, then its messages. The same against the simulator (`mock`) and the real runtime (`real`).
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';

const baseUrl = process.argv[2] ?? 'http://127.0.0.1:4010';
const text = process.argv[3] ?? 'Add an avatar to the profile page';
const client = createOpencodeClient({ baseUrl });

const { stream } = await client.v2.event.subscribe();
const seen = [];
let sessionID;
const ended = (async () => {
  for await (const event of stream) {
    if (sessionID === undefined || event.data?.sessionID !== sessionID) continue;
    if (!event.type.startsWith('session.next.') || event.type.endsWith('.delta')) continue;
    seen.push(event.type === 'session.next.tool.called' ? `tool.called(${event.data.tool})` : event.type.slice(13));
    // The last step of a turn ends with `stop`; a failed step ends it too.
    if (
      (event.type === 'session.next.step.ended' && event.data.finish === 'stop') ||
      event.type.endsWith('step.failed')
    )
      return;
  }
})();

const { data: created } = await client.v2.session.create({ agent: 'build' });
sessionID = created.data.id;
await client.v2.session.prompt({ sessionID, prompt: { text } });
await ended;
const { data: messages } = await client.v2.session.messages({ sessionID, order: 'asc' });
console.log(`the turn: ${seen.join(', ')}`);
console.log(`messages: ${messages.data.map((m) => m.type).join(', ')}`);
process.exit(0);
