/**
 * A scenario's turns as an OpenAI-compatible model (`session-agent-sim model`, `startScriptedModel`): a real
 * runtime wired to it plays the same turns the simulator plays, offline, with real tools in its workspace.
 *
 * A call is placed by what the runtime sends (`chat-request.ts`): the conversation (the `x-session-id` header),
 * its n-th prompt, and the round within that turn. The scenario's `scriptedModel.match` says which script a
 * new prompt plays; a call no script covers gets a short answer, never an error, since a runtime asks its
 * model for more than turns (titles, summaries). Pauses are the script's, in wall time, times `pace`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { remember } from '../caches/bounded-map.js';
import { headerText } from '../exchange/exchange.js';
import { generateTurn } from '../kinds/session/generated-turn.js';
import type { TurnMatch } from '../kinds/session/types.js';
import { DEFAULT_SPEC_PATH, loadSpecOnce } from '../openapi/openapi.js';
import type { ScenarioDefinition } from '../scenarios/definition.js';
import { createScenarioLibrary, type ScenarioSource } from '../scenarios/scenario-library.js';
import { createRandom } from '../state/random.js';
import { pause, playTaped, sendError, sendJson, stream, whole } from './answer-writer.js';
import { ChatError, positionOf, readChatRequest, type ChatRequest } from './chat-request.js';
import { createModelTape, createTapePlayer, readModelTape } from './model-tape.js';
import { roundsOf, type Call, type Round } from './script.js';
import { opencodeConfig, type ModelIdentity } from './wiring.js';

export interface ScriptedModelOptions {
  /** A scenario: a name in scenarios/, a path to a .yaml file, or the scenario as an object. Default: default. */
  scenario?: ScenarioSource;
  /** Overrides the scenario's `scriptedModel.match`. */
  match?: TurnMatch;
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Multiplies the script's pauses: 1 plays them as written, 0 sends everything at once. Default 1. */
  pace?: number;
  /** The model's id (default `scripted-1`) and its provider's id in a runtime's config (default `sim`). */
  model?: string;
  provider?: string;
  /** When set, a call must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Keeps every answer to a turn's calls in this file (JSON), to replay them exactly later. */
  record?: string;
  /** Answers a turn's calls from this file (see `record`) where it has them; the scenario answers the rest. */
  replay?: string;
  /** Where an unexpected failure is told, with its stack (never sent). Default: stderr. */
  log?: (line: string) => void;
}

interface Tapes {
  recording?: ReturnType<typeof createModelTape>;
  replay?: ReturnType<typeof createTapePlayer>;
}

export interface ScriptedModel {
  /** The base URL a runtime's provider takes (`…/v1`). */
  readonly url: string;
  readonly port: number;
  /** The scenario it plays, as loaded. */
  readonly scenario: ScenarioDefinition;
  /** The `opencode.json` that wires a real runtime to this model. */
  config(): Record<string, unknown>;
  /** Calls answered, those no script covered, and those whose client went away before the answer ended. */
  stats(): { calls: number; unscripted: number; abandoned: number };
  close(): Promise<void>;
}

interface Script {
  session: string;
  prompt?: string;
  rounds: Round[];
}

/** Conversations and rounds remembered at once: past it the oldest are forgotten (a turn lasts minutes). */
const REMEMBERED = 4096;
/** The largest body read: a long conversation with a runtime's tool schemas is a few MB. */
const BODY_LIMIT = 32 * 1024 * 1024;

export async function startScriptedModel(options: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  const pace = options.pace ?? 1;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (!Number.isFinite(pace) || pace < 0) throw new TypeError(`pace must be a number ≥ 0, not ${String(pace)}`);
  const spec = await loadSpecOnce(DEFAULT_SPEC_PATH);
  const scenario = createScenarioLibrary(spec).load(options.scenario ?? 'default');
  const identity: ModelIdentity = { provider: options.provider ?? 'sim', model: options.model ?? 'scripted-1' };
  const tapes: Tapes = {
    replay: options.replay === undefined ? undefined : createTapePlayer(readModelTape(options.replay)),
    recording: options.record === undefined ? undefined : createModelTape(options.record),
  };
  const player = createPlayer(scenario, options.match ?? scenario.turnMatch, tapes);
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    handle(req, res).catch((error: unknown) => {
      if (!(error instanceof ChatError))
        log(
          `[model] ${req.method ?? ''} ${req.url ?? ''}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      const failure =
        error instanceof ChatError
          ? error
          : new ChatError(500, 'The scripted model failed; its log says why', 'server_error');
      if (!res.headersSent) sendError(res, failure);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = path.replace(/\/+$/, '');
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`)
      throw new ChatError(
        401,
        'Incorrect API key provided. Send Authorization: Bearer <the apiKey this model was started with>.',
        'invalid_request_error',
      );
    if (route === '/v1/models' || route === '/models') {
      if (req.method !== 'GET') throw notAllowed(req.method, path, 'GET');
      return sendJson(res, 200, {
        object: 'list',
        data: [{ id: identity.model, object: 'model', created: 0, owned_by: 'session-agent-sim' }],
      });
    }
    if (route === '/v1/chat/completions' || route === '/chat/completions') {
      if (req.method !== 'POST') throw notAllowed(req.method, path, 'POST');
      const request = readChatRequest(await readBody(req));
      return player.answer(request, headerText(req.headers['x-session-id']), res, pace);
    }
    throw new ChatError(
      404,
      `Unknown request URL: ${req.method ?? 'GET'} ${path}. This scripted model serves POST /v1/chat/completions and GET /v1/models.`,
    );
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}/v1`;
  return {
    url,
    port: address.port,
    scenario,
    config: () => opencodeConfig(url, identity, options.apiKey),
    stats: () => player.stats(),
    close: () =>
      new Promise<void>((resolve) => {
        // A hanging answer waits for its client: closing ends it rather than waiting.
        for (const res of open) res.destroy();
        server.close(() => resolve());
      }),
  };
}

function notAllowed(method: string | undefined, path: string, allowed: string): ChatError {
  return new ChatError(405, `${method ?? 'GET'} is not allowed on ${path}; send ${allowed}.`);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        reject(new ChatError(413, `The request body is larger than ${BODY_LIMIT} bytes.`));
        req.destroy();
        return;
      }
      parts.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Which script each conversation's prompt plays, and how far each round has got. */
function createPlayer(scenario: ScenarioDefinition, match: TurnMatch, tapes: Tapes) {
  const scripts: Script[] = scenario.sessions
    .flatMap((session) => session.turns.map((turn) => ({ session: session.id, turn })))
    .sort((a, b) => a.turn.order - b.turn.order)
    .map(({ session, turn }) => ({ session, prompt: turn.prompt, rounds: roundsOf(turn.steps) }));
  const sessionsWithTurns = [...new Set(scripts.map((s) => s.session))];
  const chosen = new Map<string, Script | undefined>();
  const boundSession = new Map<string, string | undefined>();
  const attempts = new Map<string, { count: number }>();
  let nextInOrder = 0;
  let nextSession = 0;
  const ordinals = new Map<string, number>();
  let turnsSeen = 0;
  let calls = 0;
  let unscripted = 0;
  let abandoned = 0;
  let completions = 0;

  const choose = (conversation: string, turn: number, prompt: string): Script | undefined => {
    switch (match) {
      case 'order':
        return scripts[nextInOrder++];
      case 'prompt': {
        const text = prompt.toLowerCase();
        return scripts.find((s) => s.prompt !== undefined && text.includes(s.prompt.toLowerCase()));
      }
      case 'session': {
        const session = remember(boundSession, REMEMBERED, conversation, () => sessionsWithTurns[nextSession++]);
        return scripts.filter((s) => s.session === session)[turn - 1];
      }
    }
  };

  return {
    stats: () => ({ calls, unscripted, abandoned }),
    async answer(request: ChatRequest, sessionHeader: string | undefined, res: ServerResponse, pace: number) {
      calls += 1;
      let cut = false;
      res.on('close', () => {
        if (!res.writableFinished && !cut) abandoned += 1;
      });
      const conversation = sessionHeader ?? 'anonymous';
      const { turn, round, prompt } = positionOf(request.messages);
      const key = `${conversation}\0${turn}`;
      // A call that offers no tools is not a turn's step: a title, a summary, a one-off question.
      const place =
        request.tools.length === 0
          ? undefined
          : {
              turn: remember(ordinals, REMEMBERED, key, () => ++turnsSeen),
              round,
              attempt: remember(attempts, REMEMBERED, `${key}\0${round}`, () => ({ count: 0 })).count++,
              prompt,
            };
      if (place) tapes.recording?.keep(res, place);
      const taped = place && tapes.replay?.find(place.turn, place.round, place.attempt);
      if (taped) return playTaped(res, taped, pace);
      const script = place && remember(chosen, REMEMBERED, key, () => choose(conversation, turn, prompt));
      const rounds = script?.rounds[round];
      let call: Call;
      if (rounds && place) call = rounds[Math.min(place.attempt, rounds.length - 1)] as Call;
      else {
        unscripted += 1;
        call = shortAnswer(scenario.seed, request, prompt, `${conversation}:${turn}:${round}`);
      }
      completions += 1;
      const id = `chatcmpl-sim${String(completions).padStart(6, '0')}`;
      if (call.kind === 'error') {
        if (!(await pause(call.pause * pace, res))) return;
        const headers: Record<string, string> =
          call.retryAfter === undefined ? {} : { 'retry-after': String(call.retryAfter) };
        const type =
          call.status === 429 ? 'rate_limit_error' : call.status >= 500 ? 'server_error' : 'invalid_request_error';
        return sendError(res, new ChatError(call.status, call.message, type), headers);
      }
      if (call.kind === 'cut') {
        const partial = { kind: 'answer' as const, pieces: call.pieces, finish: 'stop' as const, output: 0 };
        // The cut comes the retry's `after` past the last piece: what streamed has reached the runtime by then.
        if (request.stream) await stream(res, request, partial, id, undefined, pace);
        await pause(call.pause * pace, res);
        cut = true;
        // Ended rather than destroyed: what was streamed reaches the client, then the body stops unfinished.
        if (res.socket) res.socket.end();
        else res.destroy();
        return;
      }
      const promptTokens = Math.ceil(JSON.stringify(request.messages).length / 4);
      const usage = {
        prompt_tokens: promptTokens,
        completion_tokens: call.output,
        total_tokens: promptTokens + call.output,
        ...(call.reasoning ? { completion_tokens_details: { reasoning_tokens: call.reasoning } } : {}),
      };
      if (request.stream) return stream(res, request, call, id, usage, pace);
      return sendJson(res, 200, whole(request, call, id, usage));
    },
  };
}

/** A short answer for what no script covers: a title where no tools are offered, a reply otherwise. */
function shortAnswer(seed: string, request: ChatRequest, prompt: string, key: string): Call {
  let text: string;
  if (request.tools.length === 0) {
    const words = prompt.replace(/\s+/g, ' ').trim().split(' ').slice(0, 6).join(' ');
    text = words ? words.charAt(0).toUpperCase() + words.slice(1) : 'New session';
  } else {
    const steps = generateTurn(createRandom(`${seed}:model:${key}`), prompt || 'hello', ['README.md']);
    const last = steps.filter((s) => s.kind === 'text').at(-1);
    text = last?.kind === 'text' ? last.text : 'Done.';
  }
  return {
    kind: 'answer',
    pieces: [{ kind: 'text', delta: text, pause: 0 }],
    finish: 'stop',
    output: Math.ceil(text.length / 4),
  };
}
