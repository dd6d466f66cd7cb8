/**
 * Turn fidelity: one turn script played on the simulator and on the real server (its model scripted by the
 * same script), each turn's traffic reduced to what a frontend can rely on, and the two compared.
 *
 * What is compared, after normalising what is bound to differ (ids, instants, sequence numbers, snapshots,
 * directories, tokens, costs, text): the session's event types on `/api/event` with runs of deltas pressed
 * into one; the shape (keys, nested, and value types) of every event's envelope and `data`; the assistant
 * messages and their parts; and the answers of `messages`, `message`, `history` and `context` after the turn.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { startSimulator } from '../../src/index.js';
import { startRealRuntime } from '../../src/real-runtime/real-runtime.js';

type JsonObject = Record<string, unknown>;
type Client = ReturnType<typeof createOpencodeClient>;

export interface StreamEvent {
  id?: string;
  type: string;
  data: JsonObject;
  [key: string]: unknown;
}

/** What a case does while its turn plays, on either side: answer an ask, interrupt, prompt again. */
export interface Driver {
  client: Client;
  sessionID: string;
  /** This session's events so far. */
  events(): StreamEvent[];
  /** Resolves once `seen` holds of this session's events (time moves on the simulator meanwhile). */
  until(seen: (events: StreamEvent[]) => boolean, what: string): Promise<void>;
}

export interface FidelityCase {
  /** Also the prompt's text, which the scripted model matches. */
  name: string;
  steps: JsonObject[];
  drive?: (driver: Driver) => Promise<void>;
  /** Turns the same session plays after this one (prompted by the drive), each matched by its prompt. */
  later?: Array<{ prompt: string; steps: JsonObject[] }>;
  /** When the turn is over; by default the last step ended with `stop`, or a step failed. */
  settled?: (events: StreamEvent[]) => boolean;
}

export interface Trace {
  events: StreamEvent[];
  messages: unknown;
  message: unknown;
  history: unknown;
  context: unknown;
  /** Why it did not settle, when it did not. */
  unsettled?: string;
}

export const turnEnded = (events: StreamEvent[]): boolean =>
  events.some(
    (e) =>
      (e.type === 'session.next.step.ended' && e.data.finish !== 'tool-calls') || e.type === 'session.next.step.failed',
  );

function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The scenario both sides play: one session per case, its one turn matched by the prompt's text. */
export function fidelityScenario(cases: readonly FidelityCase[], extra: JsonObject = {}): JsonObject {
  const prompts = cases.flatMap((c) => [c.name, ...(c.later ?? []).map((t) => t.prompt)].map((p) => p.toLowerCase()));
  // The scripted model matches a prompt by what it contains: no prompt may hold another.
  for (const p of prompts)
    for (const q of prompts)
      if (p !== q && p.includes(q)) throw new Error(`fidelity cases: prompt "${p}" contains "${q}"`);
  return {
    name: 'turn-fidelity',
    seed: 'turn-fidelity',
    scriptedModel: { match: 'prompt' },
    sessions: cases.map((_, i) => ({ id: sessionOf(i) })),
    turns: cases.flatMap((c, i) => [
      { session: sessionOf(i), prompt: c.name, steps: c.steps },
      ...(c.later ?? []).map((t) => ({ session: sessionOf(i), ...t })),
    ]),
    ...extra,
  };
}

const sessionOf = (i: number) => `ses_fidelity${String(i).padStart(3, '0')}`;

/** Subscribes to the whole stream and keeps every event, for as long as the signal lets it. */
async function collect(client: Client, signal: AbortSignal): Promise<StreamEvent[]> {
  const all: StreamEvent[] = [];
  const subscription = await client.v2.event.subscribe({ signal });
  void (async () => {
    for await (const event of subscription.stream) all.push(event as StreamEvent);
  })().catch(() => undefined);
  return all;
}

/** A session's events from its prompt on: what came before (its creation, an agent switch) is not the turn's. */
function bySession(all: StreamEvent[], sessionID: string): StreamEvent[] {
  const mine = all.filter((e) => (e.data as JsonObject | undefined)?.sessionID === sessionID);
  const from = mine.findIndex((e) => e.type === 'session.next.prompt.admitted');
  return from < 0 ? [] : mine.slice(from);
}

async function readAfter(client: Client, sessionID: string, events: StreamEvent[]): Promise<Omit<Trace, 'events'>> {
  const messages = (await client.v2.session.messages({ sessionID })).data;
  const last = [...events].reverse().find((e) => e.type === 'session.next.step.started');
  const messageID = last?.data.assistantMessageID as string | undefined;
  const message = messageID ? (await client.v2.session.message({ sessionID, messageID })).data : undefined;
  const history = (await client.v2.session.history({ sessionID })).data;
  const context = (await client.v2.session.context({ sessionID })).data;
  return { messages, message, history, context };
}

/** Prompts a case's session and drives it until it settles: why it did not, if it did not. */
async function playCase(c: FidelityCase, driver: Driver): Promise<string | undefined> {
  await driver.client.v2.session.prompt({ sessionID: driver.sessionID, prompt: { text: c.name } });
  try {
    await c.drive?.(driver);
    await driver.until(c.settled ?? turnEnded, 'the end of the turn');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Plays every case on the simulator, each in its scenario session, moving virtual time until it settles. */
export async function playOnSimulator(
  cases: readonly FidelityCase[],
  extra: JsonObject = {},
): Promise<Map<string, Trace>> {
  const sim = await startSimulator({ scenario: fidelityScenario(cases, extra) as never });
  const abort = new AbortController();
  const out = new Map<string, Trace>();
  try {
    const client = createOpencodeClient({ baseUrl: sim.url });
    const all = await collect(client, abort.signal);
    await pause(50);
    for (const [i, c] of cases.entries()) {
      const sessionID = sessionOf(i);
      const mine = () => bySession(all, sessionID);
      const until = async (seen: (events: StreamEvent[]) => boolean, what: string) => {
        for (let k = 0; k < 400 && !seen(mine()); k++) {
          await sim.clock.advance(250);
          await pause(k < 20 ? 5 : 20);
        }
        if (!seen(mine())) throw new Error(`simulator, ${c.name}: never saw ${what}`);
      };
      const unsettled = await playCase(c, { client, sessionID, events: mine, until });
      // What follows the end (a status, an update) belongs to the turn too.
      await sim.clock.advance(5000);
      await pause(50);
      const events = mine();
      out.set(c.name, { events, ...(await readAfter(client, sessionID, events)), ...(unsettled ? { unsettled } : {}) });
    }
  } finally {
    abort.abort();
    await sim.close();
  }
  return out;
}

/**
 * The files the cases' tools work on, so that the real tools find them: each path a tool names exists, an
 * edited one holding what the edit replaces. Every case starts from these (they are written again after each).
 */
export function workspaceFor(
  cases: readonly FidelityCase[],
  files: Record<string, string> = {},
): Record<string, string> {
  const out: Record<string, string> = { ...files };
  const lines = new Map<string, Set<string>>();
  for (const c of cases)
    for (const step of [...c.steps, ...(c.later ?? []).flatMap((t) => t.steps)]) {
      const input = step.input as JsonObject | undefined;
      const path = input?.path ?? input?.filePath;
      if (typeof step.tool !== 'string' || typeof path !== 'string' || step.error !== undefined) continue;
      // The search tools' path is a directory; a written file need not exist.
      if (!['read', 'edit'].includes(step.tool) || path in files) continue;
      const held = lines.get(path) ?? new Set<string>();
      held.add(typeof input?.oldString === 'string' ? input.oldString : `the contents of ${path}`);
      lines.set(path, held);
    }
  for (const [path, held] of lines) out[path] = `${[...held].join('\n')}\n`;
  // What a search finds is there even when an edit running beside it has already changed the file it edits.
  for (const c of cases)
    for (const step of c.steps) {
      const input = step.input as JsonObject | undefined;
      const found = /Line \d+:|:\d+:/.test(String(step.result));
      if (step.tool !== 'grep' || typeof input?.pattern !== 'string' || !found) continue;
      const dir = typeof input.path === 'string' ? input.path : '.';
      out[`${dir}/found-${Object.keys(out).length}.txt`] = `${input.pattern}\n`;
    }
  return out;
}

/**
 * Cases played side by side on the real server, each lane in a workspace (a git repository) of its own: a
 * turn spends most of its time waiting (on the model's pauses, on the quiet after it), and one runtime serves
 * every directory it is asked about.
 */
const REAL_LANES = 4;

/** A workspace for a lane beside the runtime's own: a repository of its own, so a project of its own. */
function laneWorkspace(root: string, lane: number, files: Record<string, string>): string {
  const dir = join(root, `lane-${lane}`);
  mkdirSync(dir, { recursive: true });
  write(dir, files);
  const env = { ...process.env, HOME: root, GIT_CONFIG_NOSYSTEM: '1' };
  const git = (...args: string[]) => {
    const done = spawnSync('git', args, { cwd: dir, env, encoding: 'utf8' });
    if (done.status !== 0) throw new Error(`git ${args.join(' ')} in ${dir}: ${done.stderr}`);
  };
  git('init', '-q');
  // The message tells the lanes' first commits apart: a project's id is its first commit's.
  git(
    '-c',
    'user.email=sim@example.invalid',
    '-c',
    'user.name=sim',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    `lane ${lane}`,
  );
  return dir;
}

/**
 * Plays every case on the real server, each in a session of its own, its model scripted by the same cases;
 * `REAL_LANES` cases at a time, each lane's cases one after another in its own workspace.
 */
export async function playOnRealServer(
  cases: readonly FidelityCase[],
  options: { files?: Record<string, string>; extra?: JsonObject; timeoutMs?: number } = {},
): Promise<Map<string, Trace>> {
  const files = options.files ?? {};
  const root = mkdtempSync(join(tmpdir(), 'sim-fidelity-'));
  const first = join(root, 'lane-0');
  write(first, files);
  const runtime = await startRealRuntime({
    scenario: fidelityScenario(cases, options.extra) as never,
    dir: first,
    port: 0,
    pace: 0.05,
    // Its four seconds of start-up take many more beside the documents' shells, which start with it.
    startTimeoutMs: 120_000,
  });
  const abort = new AbortController();
  const out = new Map<string, Trace>();
  try {
    const lanes = Math.max(1, Math.min(REAL_LANES, cases.length));
    const dirs = [runtime.directory];
    for (let lane = 1; lane < lanes; lane++) dirs.push(laneWorkspace(root, lane, files));
    // The stream is the whole server's: every lane's events come on it, each with its session's id.
    const all = await collect(
      createOpencodeClient({ baseUrl: runtime.url, directory: runtime.directory }),
      abort.signal,
    );
    await pause(200);
    const queue = [...cases];
    const playLane = async (dir: string) => {
      const client = createOpencodeClient({ baseUrl: runtime.url, directory: dir });
      for (let c = queue.shift(); c; c = queue.shift()) {
        const name = c.name;
        const created = await client.v2.session.create({ location: { directory: dir } });
        const sessionID = (created.data as { data: { id: string } }).data.id;
        const mine = () => bySession(all, sessionID);
        const until = async (seen: (events: StreamEvent[]) => boolean, what: string) => {
          const deadline = Date.now() + (options.timeoutMs ?? 30_000);
          while (!seen(mine()) && Date.now() < deadline) await pause(50);
          if (!seen(mine())) throw new Error(`real server, ${name}: never saw ${what}`);
        };
        const unsettled = await playCase(c, { client, sessionID, events: mine, until });
        // What follows the end (a status, an update) belongs to the turn too: wait until nothing has come for a
        // while, however late the last thing was.
        for (let seen = -1; mine().length !== seen;) {
          seen = mine().length;
          await pause(300);
        }
        write(dir, files);
        const events = mine();
        out.set(name, { events, ...(await readAfter(client, sessionID, events)), ...(unsettled ? { unsettled } : {}) });
      }
    };
    await Promise.all(dirs.map(playLane));
  } finally {
    abort.abort();
    await runtime.stop();
    rmSync(root, { recursive: true, force: true });
  }
  return out;
}

/**
 * A value's shape: objects by their keys (sorted) and each key's shape, arrays by the shapes of their items
 * (runs of one shape pressed into one), everything else by its type. Ids, instants and text are thereby gone.
 */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const items = value.map(shapeOf);
    return items.filter((s, i) => i === 0 || JSON.stringify(s) !== JSON.stringify(items[i - 1]));
  }
  if (typeof value === 'object') {
    const obj = value as JsonObject;
    const out: JsonObject = {};
    for (const key of Object.keys(obj).sort()) out[key] = shapeOf(obj[key]);
    return out;
  }
  return typeof value;
}

/** Values a frontend branches on, kept as they are; everything else is reduced to its shape. */
const KEPT = new Set(['type', 'status', 'finish', 'tool', 'name', 'delivery', 'executed', 'role']);

/** Like shapeOf, but keeps the values a UI switches on (a part's type, a status, a finish reason). */
export function formOf(value: unknown, key = ''): unknown {
  if (typeof value === 'string' && KEPT.has(key)) return value;
  if (typeof value === 'boolean' && KEPT.has(key)) return value;
  if (value === null || typeof value !== 'object') return shapeOf(value);
  if (Array.isArray(value)) {
    const items = value.map((v) => formOf(v));
    return items.filter((s, i) => i === 0 || JSON.stringify(s) !== JSON.stringify(items[i - 1]));
  }
  const obj = value as JsonObject;
  const out: JsonObject = {};
  for (const k of Object.keys(obj).sort()) out[k] = formOf(obj[k], k);
  return out;
}

export interface NormalTrace {
  /** Event types in order, runs of one delta type pressed into one. */
  types: string[];
  /** Per event (same order as types), its envelope's and data's form. */
  events: unknown[];
  messages: unknown;
  message: unknown;
  history: unknown;
  context: unknown;
}

export function normalise(trace: Trace): NormalTrace {
  const kept: StreamEvent[] = [];
  for (const event of trace.events) {
    const prev = kept[kept.length - 1];
    if (event.type.endsWith('.delta') && prev?.type === event.type) continue;
    kept.push(event);
  }
  const forms = resultsAsSets(kept.map((e) => formOf(e)));
  const history = formOf(trace.history) as { data?: unknown[] } | undefined;
  if (Array.isArray(history?.data)) history.data = resultsAsSets(history.data);
  return {
    types: forms.map((f) => (f as { type: string }).type),
    events: forms,
    messages: formOf(trace.messages),
    message: formOf(trace.message),
    history,
    context: formOf(trace.context),
  };
}

/**
 * Tools called together answer in the order they finish, which on a real machine is a race: a run of results
 * is put in one order (of their forms) on both sides.
 */
function resultsAsSets(forms: unknown[]): unknown[] {
  const out = [...forms];
  const result = (i: number) => /\.tool\.(success|failed)$/.test((out[i] as { type?: string } | undefined)?.type ?? '');
  for (let i = 0; i < out.length; i++) {
    if (!result(i)) continue;
    let j = i;
    while (result(j + 1)) j++;
    const run = out
      .slice(i, j + 1)
      .map((f) => JSON.stringify(f))
      .sort();
    run.forEach((f, k) => (out[i + k] = JSON.parse(f)));
    i = j;
  }
  return out;
}

/** The first place the two traces part, said in a line or two; undefined when they agree. */
export function firstDifference(sim: Trace, real: Trace): string | undefined {
  if (sim.unsettled || real.unsettled) return `did not settle: ${sim.unsettled ?? real.unsettled}`;
  const a = normalise(sim);
  const b = normalise(real);
  const n = Math.max(a.types.length, b.types.length);
  for (let i = 0; i < n; i++) {
    if (a.types[i] !== b.types[i])
      return `event ${i}: simulator ${a.types[i] ?? '(none)'}, real ${b.types[i] ?? '(none)'}\n  simulator: ${a.types.slice(i, i + 6).join(', ')}\n  real:      ${b.types.slice(i, i + 6).join(', ')}`;
  }
  for (let i = 0; i < n; i++) {
    const diff = pathDifference(a.events[i], b.events[i], '');
    if (diff) return `event ${i} (${a.types[i]}): ${diff}`;
  }
  for (const key of ['messages', 'message', 'history', 'context'] as const) {
    const diff = pathDifference(a[key], b[key], '');
    if (diff) return `${key}: ${diff}`;
  }
  return undefined;
}

function pathDifference(a: unknown, b: unknown, at: string): string | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        const d = pathDifference(a[i], b[i], `${at}[${i}]`);
        if (d) return d;
      }
      return undefined;
    }
    const ak = Object.keys(a as JsonObject);
    const bk = Object.keys(b as JsonObject);
    const onlySim = ak.filter((k) => !bk.includes(k));
    const onlyReal = bk.filter((k) => !ak.includes(k));
    if (onlySim.length || onlyReal.length)
      return `${at || '.'}: keys only on the simulator [${onlySim.join(', ')}], only on the real server [${onlyReal.join(', ')}]`;
    for (const k of ak) {
      const d = pathDifference((a as JsonObject)[k], (b as JsonObject)[k], `${at}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return `${at || '.'}: simulator ${JSON.stringify(a)}, real ${JSON.stringify(b)}`;
}
