/**
 * The public event streams speak only types a real server announces: with the official client's typed
 * subscription, on every shipped scenario played through its timeline (and a scripted turn, a form reply,
 * a shell timeout, an attempt polled, an instructions entry removed), every event's type is in the client's
 * `V2Event` union, the real server's document, or the forms' and shells' events of its newer code line (the
 * real-server notes), which a frontend needs to see a form settle or a shell time out. The simulator's own
 * types go to the log (`/__sim/live`, the journal), and onto the stream only with `simEvents`. The client's
 * and the document's types are read from the files at test time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { V2Event } from '@opencode-ai/sdk/v2/client';
import { describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/index.js';
import { KINDS } from '../../src/kinds/registry.js';
import { realDoc } from '../support/real-doc.js';
import { subscribeWithClient } from '../support/client-subscription.js';
import { eventProblems } from '../support/spec-validator.js';
import { until } from '../support/until.js';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The `type` of each member of `V2Event` in the client's generated types. */
function clientEventTypes(): Set<string> {
  const file = fileURLToPath(
    new URL('../../node_modules/@opencode-ai/sdk/dist/v2/gen/types.gen.d.ts', import.meta.url),
  );
  const text = readFileSync(file, 'utf8');
  const union = /^export type V2Event = ([^;]+);/m.exec(text)?.[1];
  if (!union) throw new Error(`no V2Event union in ${file}`);
  const types = new Set<string>();
  for (const name of union.split('|').map((n) => n.trim())) {
    // The member's own block, up to the next declaration; its first `type:` is the event's.
    const at = text.indexOf(`export type ${name} = {`);
    const block = text.slice(at, text.indexOf('\nexport type ', at + 1));
    const type = at < 0 ? undefined : /\btype: "([^"]+)"/.exec(block)?.[1];
    if (!type) throw new Error(`V2Event member ${name} has no type in ${file}`);
    types.add(type);
  }
  return types;
}

/** The event types the real server's document declares: schemas with a one-valued `type` and a `data`. */
function realServerEventTypes(): Set<string> {
  const types = new Set<string>();
  for (const schema of Object.values(realDoc.components.schemas as JsonObject)) {
    const type = (schema as JsonObject).properties?.type as JsonObject | undefined;
    const one = type?.const ?? (type?.enum?.length === 1 ? type.enum[0] : undefined);
    if (typeof one === 'string' && (schema as JsonObject).properties?.data) types.add(one);
  }
  return types;
}

/**
 * The real server's newer code line (the one the interface describes) announces forms and shells with these
 * (real-server notes §5, §6, §8); neither the client nor the 1.18.33 document has them yet.
 */
const NEWER = ['form.created', 'form.replied', 'form.cancelled', 'shell.created', 'shell.exited', 'shell.deleted'];

const CLIENT = clientEventTypes();
const KNOWN = new Set([...CLIENT, ...realServerEventTypes(), ...NEWER]);
const SCENARIOS = readdirSync(new URL('../../scenarios/', import.meta.url))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.replace(/\.yaml$/, ''));

const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
/** Shipped scenarios that declare no session: no history to read. */
const SESSIONLESS = ['oauth-expires', 'oauth-pending-then-complete', 'shell-timeout'];

async function subscribe(baseUrl: string): Promise<{ types: string[]; stop(): void }> {
  // Typed as V2Event: `type` is what a typed frontend switches on.
  const { frames, stop } = await subscribeWithClient<V2Event>(baseUrl);
  return {
    get types() {
      return frames.map((event) => event.type);
    },
    stop,
  };
}

const send = (sim: SimulatorHandle, method: string, path: string, body?: unknown) =>
  fetch(`${sim.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/**
 * Plays a scenario: what a frontend does to its resources (each where the scenario has it), then its whole
 * timeline by clock advances. Returns the sessions it has, for their histories.
 */
async function play(sim: SimulatorHandle): Promise<string[]> {
  const state = (await sim.state()) as JsonObject;
  const ids = (table: unknown): string[] =>
    Array.isArray(table)
      ? table.map((r: JsonObject) => r.id as string)
      : Object.keys((table as JsonObject | undefined) ?? {});
  const sessions = ids(state.sessions);
  if (sessions.includes(SES)) await send(sim, 'POST', `/api/session/${SES}/synthetic`, { text: 'Go on' });
  for (const session of sessions.slice(0, 2)) {
    await send(sim, 'DELETE', `/api/session/${session}/instructions/entries/style`);
    await send(sim, 'POST', `/api/session/${session}/synthetic`, { text: 'And then?', resume: true });
  }
  for (const shell of ids(state.shells)) await send(sim, 'PATCH', `/api/shell/${shell}/timeout`, { timeout: 1000 });
  for (const attempt of ids(state.attempts))
    for (let i = 0; i < 4; i++) await send(sim, 'GET', `/api/integration/attempt/${attempt}`);
  for (const form of (state.forms as JsonObject[] | undefined) ?? []) {
    if (form.sessionID) await send(sim, 'POST', `/api/session/${form.sessionID}/form/${form.id}/reply`, { answer: {} });
  }
  // Timers fire at their own instants however far one advance goes; steps let streamed turns interleave.
  for (let i = 0; i < 40; i++) await sim.clock.advance('30s');
  return sessions;
}

async function historyTypes(sim: SimulatorHandle, sessions: string[]): Promise<string[]> {
  const types: string[] = [];
  for (const session of sessions) {
    const res = await send(sim, 'GET', `/api/session/${session}/history?limit=1000`);
    if (res.status !== 200) continue;
    for (const event of ((await res.json()) as JsonObject).data as JsonObject[]) types.push(event.type as string);
  }
  return types;
}

/** The frames the session's own stream replays after its first, read for a moment. */
async function sessionStreamTypes(sim: SimulatorHandle, session: string): Promise<string[]> {
  const controller = new AbortController();
  const res = await fetch(`${sim.url}/api/session/${session}/event?after=0`, { signal: controller.signal });
  if (res.status !== 200 || !res.body) return [];
  const reader = res.body.getReader();
  let text = '';
  const stop = setTimeout(() => controller.abort(), 300);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
  } catch {
    // aborted: what came is what the session's stream replays
  } finally {
    clearTimeout(stop);
  }
  return [...text.matchAll(/^data: (.*)$/gm)].map((m) => (JSON.parse(m[1] as string) as JsonObject).type as string);
}

async function run(scenario: string, simEvents: boolean) {
  const sim = await startSimulator({ scenario, simEvents });
  try {
    const sub = await subscribe(sim.url);
    const sessions = await play(sim);
    // Some scenarios publish nothing a client knows (an attempt expiring, a shell timing out): wait for the
    // frames in flight rather than for a count.
    await new Promise((r) => setTimeout(r, 100));
    sub.stop();
    const logged = ((await sim.events()) as JsonObject[])
      .filter((e) => e.kind === 'event')
      .map((e) => e.type as string);
    const history = await historyTypes(sim, sessions);
    const own = sessions[0] === undefined ? [] : await sessionStreamTypes(sim, sessions[0]);
    return { stream: sub.types, history, own, logged };
  } finally {
    await sim.close();
  }
}

const outside = (types: string[]) => [...new Set(types)].filter((t) => !KNOWN.has(t));

describe('the public event streams, through the official client', () => {
  it('reads the allowed types from the client and the real server document', () => {
    // A sanity check on the parsing: the union is long, and holds what the stream always sends first.
    expect(CLIENT.size).toBeGreaterThan(50);
    expect(CLIENT.has('server.connected')).toBe(true);
    expect(KNOWN.has('integration.connection.updated')).toBe(true);
    for (const type of KINDS.simOnly) expect(KNOWN.has(type), type).toBe(false);
  });

  it.each(SCENARIOS)(
    '%s: carry no type outside V2Event, the real server document or its newer forms and shells',
    { timeout: 60_000 },
    async (name) => {
      const { stream, history, own, logged } = await run(name, false);
      // The scenario did play: its world changed, and the stream opened.
      expect(logged.length).toBeGreaterThan(0);
      expect(stream[0]).toBe('server.connected');
      expect(outside(stream)).toEqual([]);
      expect(outside(history)).toEqual([]);
      expect(outside(own)).toEqual([]);
      // Every shipped scenario but those without sessions has histories to read.
      expect(history.length > 0 && own.length > 0).toBe(SESSIONLESS.includes(name) ? false : true);
      // What the stream leaves out is still in the log (/__sim/live, the journal, the inspector).
      const held = [...new Set(logged)].filter((t) => KINDS.simOnly.has(t));
      for (const type of held) expect(stream).not.toContain(type);
    },
  );

  it('puts the simulator own types on the stream with simEvents, and only then', { timeout: 60_000 }, async () => {
    const seen = new Set<string>();
    for (const name of ['default', 'forms-settling', 'shell-timeout']) {
      const { stream } = await run(name, true);
      for (const type of stream) seen.add(type);
    }
    const own = [...seen].filter((t) => KINDS.simOnly.has(t)).sort();
    expect(own).toEqual(
      expect.arrayContaining([
        'integration.attempt.settled',
        'session.instructions.entry.removed',
        'shell.timeout.updated',
      ]),
    );
    // The newer real server's types are no longer the simulator's own.
    for (const type of NEWER) expect(KINDS.simOnly.has(type), type).toBe(false);
  });
});

type Frame = V2Event | { type: string; data: JsonObject; durable?: unknown };

/** A simulator of a shipped scenario, without `simEvents`, and the official client's typed subscription to it. */
async function subscribed(scenario: string) {
  const sim = await startSimulator({ scenario, log: () => {} });
  const { frames, stop } = await subscribeWithClient<Frame>(sim.url);
  const of = (type: string) => frames.filter((f) => f.type === type) as Array<{ type: string; data: JsonObject }>;
  return { sim, frames, of, close: async () => (stop(), await sim.close()) };
}

describe('forms and shells on the public stream, as the newer real server announces them', () => {
  it('a shell timing out, and one exiting, reach the client without simEvents', { timeout: 60_000 }, async () => {
    const { sim, frames, of, close } = await subscribed('shell-timeout');
    try {
      const E2E = 'sh_203a7e5c7001OpQrStUvWxYzAb';
      const BUILD = 'sh_203a7e0a4001Bc4DeFgHiJkLmN';
      // A timeout replaced is the simulator's own note: the client does not see it.
      expect((await send(sim, 'PATCH', `/api/shell/${E2E}/timeout`, { timeout: 8000 })).status).toBe(200);
      await sim.clock.advance('10s');
      await until(() => of('shell.exited').length === 2, 'two shell.exited');
      expect(of('shell.exited').map((f) => f.data)).toEqual([
        { id: BUILD, status: 'exited', exit: 0 },
        { id: E2E, status: 'timeout' },
      ]);
      for (const frame of of('shell.exited')) {
        expect(eventProblems(frame), JSON.stringify(frame)).toEqual([]);
        expect(frame).not.toHaveProperty('durable');
      }
      expect(frames.map((f) => f.type)).not.toContain('shell.timeout.updated');
      const logged = ((await sim.events()) as JsonObject[]).map((e) => e.type as string);
      expect(logged).toContain('shell.timeout.updated');
    } finally {
      await close();
    }
  });

  it(
    'a form answered, one appearing and one cancelled reach the client without simEvents',
    { timeout: 60_000 },
    async () => {
      const { sim, frames, of, close } = await subscribed('forms-settling');
      try {
        const SES = 'ses_dfc5ae513ffePKUBK7HkVp5zCB';
        const answer = { framework: 'react', tests: true, coverage: 80 };
        const reply = await send(sim, 'POST', `/api/session/${SES}/form/frm_203a7c0e2001Ab3dEf4GhIjKlM/reply`, {
          answer,
        });
        expect(reply.status).toBe(204);
        await sim.clock.advance('10s');
        await sim.clock.advance('1m');
        await until(() => of('form.cancelled').length === 1, 'form.cancelled');
        expect(frames.map((f) => f.type).filter((t) => t.startsWith('form.'))).toEqual([
          'form.replied',
          'form.created',
          'form.cancelled',
        ]);
        expect(of('form.replied')[0]?.data).toEqual({ id: 'frm_203a7c0e2001Ab3dEf4GhIjKlM', sessionID: SES, answer });
        expect(of('form.created')[0]?.data.form).toMatchObject({ id: 'frm_203a7d0000010LaterFormAbCd', mode: 'url' });
        expect(of('form.cancelled')[0]?.data).toEqual({
          id: 'frm_203a7e0000010CancelledAbCd',
          sessionID: 'ses_dfc5a1111111OtherSession01',
        });
        for (const frame of of('form.replied').concat(of('form.created'), of('form.cancelled')))
          expect(eventProblems(frame), JSON.stringify(frame)).toEqual([]);
      } finally {
        await close();
      }
    },
  );
});
