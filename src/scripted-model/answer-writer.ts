/**
 * How the scripted model's answers go out: whole JSON (and the OpenAI error shape), a streamed answer's
 * `chat.completion.chunk`s with the script's pauses, and a recorded answer as it was recorded. Every pause
 * ends early when the client goes away, and nothing more is sent to it.
 */
import type { ServerResponse } from 'node:http';
import { fitTool, type ChatError, type ChatRequest } from './chat-request.js';
import type { TapedCall } from './model-tape.js';
import { pieces, type Call, type Piece } from './script.js';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: ChatError, headers: Record<string, string> = {}): void {
  sendJson(res, error.status, error.body(), headers);
}

/** A recorded answer, as it went out: its head, then each chunk after its recorded pause (times `pace`). */
export async function playTaped(res: ServerResponse, taped: TapedCall, pace: number): Promise<void> {
  res.writeHead(taped.status, taped.headers);
  res.flushHeaders();
  for (const chunk of taped.chunks) {
    if (!(await pause(chunk.after * pace, res))) return;
    res.write(chunk.text);
  }
  if (taped.cut) res.destroy();
  else res.end();
}

/** Waits `ms`; false when the client went away meanwhile (an interrupt), and nothing more is sent. */
export function pause(ms: number, res: ServerResponse): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      res.off('close', gone);
      resolve(ok);
    };
    const gone = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    res.on('close', gone);
  });
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  completion_tokens_details?: { reasoning_tokens: number };
}

/** Each tool call of an answer, fitted to the offered tools, with its call id. */
function toolCalls(request: ChatRequest, call: Extract<Call, { kind: 'answer' }>, id: string) {
  return call.pieces
    .filter((p): p is Extract<Piece, { kind: 'tool' }> => p.kind === 'tool')
    .map((p, index) => ({ piece: p, index, id: `call_${id.slice(-6)}_${index}`, ...fitTool(p, request.tools) }));
}

/** Streams an answer; without `usage`, it stops after its last piece, for a cut to drop the connection. */
export async function stream(
  res: ServerResponse,
  request: ChatRequest,
  call: Extract<Call, { kind: 'answer' }>,
  id: string,
  usage: Usage | undefined,
  pace: number,
): Promise<void> {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model: request.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  // Headers go out now, as a model's do before its first token: a slow token is then a slow token, not a slow answer.
  res.flushHeaders();
  const tools = toolCalls(request, call, id);
  let first = true;
  const send = (delta: Record<string, unknown>) => {
    res.write(chunk(first ? { role: 'assistant', ...delta } : delta));
    first = false;
  };
  let toolIndex = 0;
  for (const piece of call.pieces) {
    if (!(await pause(piece.pause * pace, res))) return;
    if (piece.kind !== 'tool') {
      send(piece.kind === 'text' ? { content: piece.delta } : { reasoning_content: piece.delta });
      continue;
    }
    const tool = tools[toolIndex++];
    if (!tool) continue;
    send({
      tool_calls: [{ index: tool.index, id: tool.id, type: 'function', function: { name: tool.name, arguments: '' } }],
    });
    for (const delta of pieces(JSON.stringify(tool.input), piece.chunk)) {
      if (!(await pause(piece.every * pace, res))) return;
      send({ tool_calls: [{ index: tool.index, function: { arguments: delta } }] });
    }
  }
  if (!usage) return;
  res.write(chunk(first ? { role: 'assistant' } : {}, call.finish));
  if (request.includeUsage)
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [], usage })}\n\n`,
    );
  res.end('data: [DONE]\n\n');
}

/** The same answer in one piece, for a client that does not stream. */
export function whole(request: ChatRequest, call: Extract<Call, { kind: 'answer' }>, id: string, usage: Usage) {
  const content = call.pieces.map((p) => (p.kind === 'text' ? p.delta : '')).join('');
  const reasoning = call.pieces.map((p) => (p.kind === 'reasoning' ? p.delta : '')).join('');
  const tools = toolCalls(request, call, id);
  const message: Record<string, unknown> = { role: 'assistant', content: content || null };
  if (reasoning) message.reasoning_content = reasoning;
  if (tools.length)
    message.tool_calls = tools.map((t) => ({
      id: t.id,
      type: 'function',
      function: { name: t.name, arguments: JSON.stringify(t.input) },
    }));
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message, finish_reason: call.finish, logprobs: null }],
    usage,
  };
}
