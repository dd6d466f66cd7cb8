// What an app built on the official client does as it starts, against the simulator or the real server: the
// first calls, then a session of its own, prompted, its turn watched on the event stream until it is over.
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';

const baseUrl = process.argv[2] ?? 'http://127.0.0.1:4010';
const client = createOpencodeClient({ baseUrl });

const { data: health } = await client.v2.health.get();
const { data: location } = await client.v2.location.get();
const { data: agents } = await client.v2.agent.list();
const { data: sessions } = await client.v2.session.list({ limit: 3 });
const { data: active } = await client.v2.session.active();
const { data: permissions } = await client.v2.permission.request.list();
const { data: questions } = await client.v2.question.request.list();
console.log(`healthy: ${health.healthy}, in ${location.directory}`);
console.log(`agents: ${agents.data.map((a) => a.id).join(', ')}`);
console.log(`latest sessions: ${sessions.data.map((s) => s.title).join(' | ')}`);
console.log(
  `busy: ${Object.keys(active.data).length}; waiting for an answer: ${permissions.data.length} permission, ${questions.data.length} question`,
);

// Every change is announced on the stream; a frontend keeps one subscription open. The world moves on while
// the turn plays (other sessions too), so only this session's events count. The real server announces no
// status for a prompted turn: the turn is over when a step ends with anything but more tool calls, or fails.
const { stream } = await client.v2.event.subscribe();
const seen = [];
let sessionID;
const over = (event) =>
  (event.type === 'session.next.step.ended' && event.data.finish !== 'tool-calls') ||
  event.type === 'session.next.step.failed';
// What a chat view shows as "working…", from those signals alone.
const statuses = [];
const show = (status) => statuses.at(-1) !== status && statuses.push(status);
const done = (async () => {
  for await (const event of stream) {
    if (sessionID === undefined || event.data?.sessionID !== sessionID) continue;
    seen.push(event.type);
    if (event.type === 'session.next.prompted') show('working…');
    // Now and then the agent asks before it runs a command, and waits: this app always lets it, once.
    if (event.type === 'permission.v2.asked')
      void client.v2.session.permission.reply({ sessionID, requestID: event.data.id, reply: 'once' });
    if (over(event)) return show('idle');
  }
})();

const { data: created } = await client.v2.session.create({
  agent: 'build',
  location: { directory: location.directory },
});
sessionID = created.data.id;
await client.v2.session.prompt({ sessionID, prompt: { text: 'Add a dark mode toggle' } });
// The simulator's clock follows the wall clock, so the turn plays by itself, in about ten seconds. One
// started with --virtual-time (as tests start it) stands still until told: move it on, or this waits forever.
// (The real server has no /__sim/: it answers its web page there, and its turns play by themselves.)
const clock = await fetch(`${baseUrl}/__sim/clock`)
  .then((r) => r.json())
  .catch(() => undefined);
if (clock && !clock.realTime)
  await fetch(`${baseUrl}/__sim/clock/advance`, { method: 'POST', body: JSON.stringify({ by: '1m' }) });
await done;
const { data: messages } = await client.v2.session.messages({ sessionID, order: 'asc' });
console.log(`the turn: ${seen.filter((t) => t.startsWith('session.next.step')).join(', ')}`);
console.log(`shown: ${statuses.join(' → ')}`);
console.log(`messages: ${messages.data.map((m) => m.type).join(', ')}`);
process.exit(0);
