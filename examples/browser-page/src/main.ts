// The app of this page, as it would talk to the real server, except for the first lines: in dev mode its
// backend is the simulator, running here in the page behind msw's service worker.
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { setupWorker } from 'msw/browser';
import { simulatorHandlers } from 'session-agent-sim/msw';

// Real time, so the turn plays out on its own as the page watches (tests would rather advance the clock).
const sim = await simulatorHandlers({ scenario: 'default', realTime: true });
await setupWorker(...sim.handlers).start({ onUnhandledRequest: 'bypass', quiet: true });

const client = createOpencodeClient({ baseUrl: sim.url });
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
let current: string | undefined;

async function listSessions(): Promise<void> {
  const { data } = await client.v2.session.list();
  $('sessions').replaceChildren(
    ...(data?.data ?? []).map((session) => {
      const button = document.createElement('button');
      button.textContent = session.title;
      button.setAttribute('aria-pressed', String(session.id === current));
      button.onclick = () => select(session.id, session.title);
      const item = document.createElement('li');
      item.append(button);
      return item;
    }),
  );
}

function select(id: string, title: string): void {
  current = id;
  $('title').textContent = title;
  $('prompt').hidden = false;
  $('output').textContent = '';
  void listSessions();
}

$<HTMLFormElement>('prompt').onsubmit = async (event) => {
  event.preventDefault();
  if (!current) return;
  const text = new FormData(event.target as HTMLFormElement).get('text') as string;
  $('output').textContent = '';
  await client.v2.session.prompt({ sessionID: current, prompt: { text } });
};

// Everything the page shows of a turn comes from the event stream, as it would from the real server. A text
// part streams in as deltas; one that arrives whole (no deltas) is shown when it ends.
async function follow(): Promise<void> {
  const streamed = new Set<string>();
  const { stream } = await client.v2.event.subscribe();
  for await (const event of stream) {
    const { type, data } = event as unknown as { type: string; data: Record<string, unknown> };
    if (data?.sessionID !== current) continue;
    const output = $('output');
    // "working…" by the real server's signals: it announces no status for a prompted turn, only the turn.
    const over =
      (type === 'session.next.step.ended' && data.finish !== 'tool-calls') || type === 'session.next.step.failed';
    if (type === 'session.next.prompted' || type === 'session.next.step.started') $('status').textContent = 'working…';
    else if (over) $('status').textContent = 'idle';
    if (type === 'session.next.tool.called') output.append(`→ ${String(data.tool)}\n`);
    else if (type === 'session.next.text.delta') {
      streamed.add(String(data.textID));
      output.append(String(data.delta));
    } else if (type === 'session.next.text.ended' && !streamed.has(String(data.textID)))
      output.append(`${String(data.text)}\n`);
  }
}

void follow();
await listSessions();
document.body.dataset.ready = 'true';
