/**
 * Agent turns, planned: what a session does after a synthetic message with resume. A turn is planned whole when
 * it starts (the scenario's next scripted turn for the session, else one generated from the seed), and its plan
 * is committed as a `session.turn.started` event; every event of the turn (steps, streamed text and
 * reasoning, tool calls, failures) follows from that plan alone, each at its own virtual instant
 * (`turn-events.ts`). `turn-play.ts` fires them as the clock reaches them; `turn-appliers.ts` builds the assistant messages from
 * them, so a page of messages mid-turn shows what exists so far.
 *
 * Decisions:
 * - The turn captures agent and model when it starts; a switch mid-turn applies to the next turn.
 * - Deltas change nothing in the world (the real server does not persist them either): a text or reasoning
 *   part appears empty when it starts and holds its whole text once it ends.
 */
import { createRandom } from '../../state/random.js';
import type { World } from '../../state/world.js';
import { generateTurn, projectFiles } from './generated-turn.js';
import { inputPath, WRITES } from './tool-results.js';
import type { PlannedPart, PlannedStep, QueuedPrompt, SessionState, TokenUsage, TurnPlan, TurnStep } from './types.js';

/** The model's time to first token, when a step does not say its own `after`. */
const FIRST_TOKEN = 700;
/** Pause between things a step does, when it does not say. */
const BETWEEN = 250;
const CHUNK = { text: 16, reasoning: 24, tool: 32 } as const;
const EVERY = { text: 50, reasoning: 40, tool: 20 } as const;
const TOOL_TAKES = 1500;
const RETRY_WAIT = 2000;
/** Dollars per million tokens, a mid-size model's: every input token is a cache read or a cache write. */
const PRICE = { output: 15, read: 0.3, write: 3.75 };

type IdMaker = (prefix: string, at: number) => string;
const NO_IDS: IdMaker = () => '';
const NO_SNAPSHOTS: Snapshots = { start: '', after: () => '' };

/** 40 hex digits from a seed: a git tree's hash, as the real runtime's snapshots are. */
function treeHash(seed: string): string {
  const random = createRandom(seed);
  let out = '';
  for (let i = 0; i < 40; i++) out += HEX[random.int(16)];
  return out;
}
const HEX = '0123456789abcdef';

/** Code points, so a chunk never splits a character. */
export function chunks(text: string, size: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out.length ? out : [''];
}

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** Statuses a provider client retries by itself, as the real runtime's does. */
const RETRYABLE = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;
/** Calls in a row that fail before the runtime gives up on the step, and on the turn. */
const ATTEMPTS = 3;

/** The message the real runtime fails a step with when its provider answers an HTTP error. */
function providerFailure(status: number, message: string): string {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  const body = JSON.stringify({ error: { message, type, param: null, code: null } });
  return `Provider request failed with HTTP ${status}: ${body}`;
}

/** Makes the workspace's snapshots: the one a turn starts from, and the next after each change. */
export interface Snapshots {
  start: string;
  after(files: readonly string[]): string;
}

/**
 * Where each step falls in time, from `start`, with ids made for the instants they name. A model step shows
 * from its first token; its parts stream one after another; when the stream ends its tools are called and
 * run side by side, and the step ends when the last has answered. A tool closes its step unless another tool
 * follows. A retry is the runtime's own affair and shows nothing (what its attempt streamed never arrived):
 * the third in a row, a status no client retries, a dropped stream and `fail` end the step and the turn.
 */
function layout(
  steps: readonly TurnStep[],
  start: number,
  ids: IdMaker,
  context: number,
  snapshots: Snapshots,
  provider = 'anthropic',
): { steps: PlannedStep[]; end: number } {
  const out: PlannedStep[] = [];
  let t = start;
  let open: { messageID: string; at: number; parts: PlannedPart[] } | undefined;
  let snapshot = snapshots.start;
  let failures = 0;
  let input = context;
  let added = 0;
  let output = 0;
  let reasoning = 0;
  let results = 0;
  let over = false;
  const close = (end: (streamed: number) => PlannedStep['end']) => {
    if (!open) return;
    const streamed = t;
    const tools = open.parts.filter((p): p is Extract<PlannedPart, { kind: 'tool' }> => p.kind === 'tool');
    const files = [...new Set(tools.filter((p) => WRITES.has(p.tool)).flatMap((p) => inputPath(p.input) ?? []))];
    const ended = end(streamed);
    if (ended.kind === 'ended') t = ended.at = Math.max(streamed, ...tools.map((p) => streamed + p.takes));
    const next = ended.kind === 'ended' && files.length ? snapshots.after(files) : snapshot;
    out.push({ ...open, streamed, end: ended, snapshot: { start: snapshot, end: next, files } });
    snapshot = next;
    open = undefined;
  };
  const usage =
    (finish: 'stop' | 'tool-calls') =>
    (at: number): PlannedStep['end'] => {
      // A step reads the context its predecessor sent from the provider's cache and writes what is new.
      const read = out.length === 0 ? Math.floor(input * 0.6) : input - added;
      const tokens: TokenUsage = { input, output, reasoning, cache: { read, write: input - read } };
      const cost =
        Math.round(read * PRICE.read + (input - read) * PRICE.write + (output + reasoning) * PRICE.output) / 1e6;
      added = output + reasoning + results;
      input += added;
      output = reasoning = results = 0;
      return { kind: 'ended', at, finish, cost, tokens };
    };
  /** Ends the turn with a failed step: the one streaming, or one that shows only its start and its failure. */
  const fail = (message: string) => {
    open ??= { messageID: ids('msg_', t), at: t, parts: [] };
    close((at) => ({ kind: 'failed', at, message }));
    over = true;
  };
  steps.forEach((step, i) => {
    if (over) return;
    const pause = Math.round(step.after ?? (open ? BETWEEN : FIRST_TOKEN));
    t += pause;
    switch (step.kind) {
      case 'text':
      case 'reasoning': {
        failures = 0;
        const chunk = step.chunk ?? CHUNK[step.kind];
        const every = Math.round(step.every ?? EVERY[step.kind]);
        // A part shows with its first piece, which comes `every` after the pause, as a model streams it.
        t += every;
        open ??= { messageID: ids('msg_', t), at: t, parts: [] };
        open.parts.push({ kind: step.kind, id: ids('prt_', t), at: t, text: step.text, chunk, every });
        t += every * (chunks(step.text, chunk).length - 1);
        if (step.kind === 'text') output += tokensOf(step.text);
        else reasoning += tokensOf(step.text);
        break;
      }
      case 'tool': {
        failures = 0;
        open ??= { messageID: ids('msg_', t), at: t, parts: [] };
        const chunk = step.chunk ?? CHUNK.tool;
        const every = Math.round(step.every ?? EVERY.tool);
        const takes = Math.round(step.takes ?? TOOL_TAKES);
        const args = { ...step.input };
        const part: PlannedPart = {
          kind: 'tool',
          callID: ids('call_', t),
          at: t,
          tool: step.tool,
          input: args,
          chunk,
          every,
          takes,
        };
        if (step.result !== undefined) part.result = step.result;
        if (step.error !== undefined) part.error = step.error;
        if (step.structured !== undefined) part.structured = { ...step.structured };
        if (step.tool === 'question') part.asks = 'question';
        else if (step.ask) part.asks = 'permission';
        open.parts.push(part);
        const json = JSON.stringify(args);
        t += every * chunks(json, chunk).length;
        output += tokensOf(json);
        results += tokensOf(step.error ?? step.result ?? '');
        if (steps[i + 1]?.kind !== 'tool') close(usage('tool-calls'));
        break;
      }
      case 'fail':
        // A client error is not retried: what the step streamed never came, and the turn ends.
        open = undefined;
        fail(providerFailure(400, step.message));
        break;
      case 'retry': {
        if (step.cut) {
          fail(`Failed to read ${provider}/openai-compatible-chat stream`);
          break;
        }
        const status = step.statusCode ?? 500;
        open = undefined;
        output = reasoning = results = 0;
        failures += 1;
        if (!RETRYABLE(status) || failures >= ATTEMPTS) {
          fail(providerFailure(status, step.message));
          break;
        }
        t += Math.round(step.wait ?? RETRY_WAIT);
        break;
      }
    }
  });
  if (open) close(usage('stop'));
  return { steps: out, end: t };
}

/** Stretches (or shrinks) a generated turn to last `run` ms: the scenario's `busyAfterSynthetic`. */
function fitTo(steps: TurnStep[], run: number, context: number): TurnStep[] {
  const natural = layout(steps, 0, NO_IDS, context, NO_SNAPSHOTS).end;
  const factor = natural > 0 ? run / natural : 0;
  const scale = (ms: number | undefined) => (ms === undefined ? undefined : Math.floor(ms * factor));
  const scaled = steps.map((step): TurnStep => {
    switch (step.kind) {
      case 'text':
      case 'reasoning':
      case 'tool':
        return {
          ...step,
          after: scale(step.after),
          every: scale(step.every),
          ...(step.kind === 'tool' ? { takes: scale(step.takes) } : {}),
        };
      case 'retry':
        return { ...step, after: scale(step.after), wait: scale(step.wait) };
      case 'fail':
        return { ...step, after: scale(step.after) };
    }
  });
  // Whole milliseconds lose a little; the last pause takes it up so the turn ends exactly on time.
  const last = scaled.length - 1;
  const slack = run - layout(scaled, 0, NO_IDS, context, NO_SNAPSHOTS).end;
  scaled[last] = { ...(scaled[last] as TurnStep), after: (scaled[last]?.after ?? 0) + slack };
  return scaled;
}

/** The turn a prompt plays when it starts at `start`: the session's next scripted one, else a generated one. */
export function planTurn(
  world: World,
  state: SessionState,
  prompt: QueuedPrompt,
  start: number,
  number: number,
): TurnPlan {
  const script = state.definition.turns[number];
  // The history a step sends to the model: a believable context size for its token counts.
  const context = 2400 + 60 * Math.min(state.messages.length, 400);
  let steps =
    script?.steps ??
    generateTurn(
      createRandom(`${world.scenario.seed}:turn:${state.definition.id}:${number}`),
      prompt.text,
      projectFiles(world),
    );
  const run = state.definition.busyAfterSynthetic;
  if (!script && run !== undefined) steps = fitTo([...steps], run, context);
  const ids: IdMaker = (prefix, at) => world.ids.ascending(prefix, at);
  const directory =
    state.location?.directory ?? state.definition.location?.directory ?? world.scenario.project?.directory;
  const seed = `${world.scenario.seed}:snapshot:${state.definition.id}:${number}`;
  let changes = 0;
  const snapshots: Snapshots = {
    start: state.snapshot ?? treeHash(`${world.scenario.seed}:snapshot`),
    after: () => treeHash(`${seed}:${changes++}`),
  };
  return {
    sessionID: state.definition.id,
    promptID: prompt.messageID,
    number,
    scripted: script !== undefined,
    agent: state.agent,
    model: { ...state.model },
    start,
    steps: layout(steps, start, ids, context, snapshots, state.model.providerID).steps,
    ...(directory ? { directory } : {}),
  };
}
