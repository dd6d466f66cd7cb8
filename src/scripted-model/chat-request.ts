/**
 * What a runtime sends the model (`POST /v1/chat/completions`, the OpenAI Chat shape), read as far as a script
 * needs it: where in which turn the call falls, what the user asked, and which tools it offers. A body the
 * OpenAI API would refuse is refused here too, in its error shape, so that a client's mistake shows.
 */

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown;
}

export interface OfferedTool {
  name: string;
  parameters?: { properties?: Record<string, unknown>; required?: unknown; additionalProperties?: unknown };
}

export interface ChatRequest {
  model: string;
  stream: boolean;
  includeUsage: boolean;
  messages: ChatMessage[];
  tools: OfferedTool[];
}

/** The OpenAI API's error body, for a request it would refuse. */
export class ChatError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'invalid_request_error',
    readonly param: string | null = null,
  ) {
    super(message);
  }

  body(): { error: { message: string; type: string; param: string | null; code: string | null } } {
    return { error: { message: this.message, type: this.type, param: this.param, code: null } };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function readChatRequest(text: string): ChatRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ChatError(
      400,
      'We could not parse the JSON body of your request. Send a JSON object such as {"model": "…", "messages": [{"role": "user", "content": "Hello"}]}.',
    );
  }
  if (!isObject(body)) throw new ChatError(400, 'The request body must be a JSON object.');
  if (typeof body.model !== 'string' || body.model === '')
    throw new ChatError(400, 'you must provide a model parameter', 'invalid_request_error', 'model');
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    throw new ChatError(
      400,
      "Invalid 'messages': expected a non-empty array of messages.",
      'invalid_request_error',
      'messages',
    );
  body.messages.forEach((message, i) => {
    if (!isObject(message) || typeof message.role !== 'string')
      throw new ChatError(
        400,
        `Invalid 'messages[${i}]': expected an object with a string 'role' (system, user, assistant or tool).`,
        'invalid_request_error',
        `messages[${i}]`,
      );
  });
  if (body.stream !== undefined && typeof body.stream !== 'boolean')
    throw new ChatError(400, "Invalid 'stream': expected a boolean.", 'invalid_request_error', 'stream');
  if (body.tools !== undefined && !Array.isArray(body.tools))
    throw new ChatError(400, "Invalid 'tools': expected an array.", 'invalid_request_error', 'tools');
  const tools = ((body.tools as unknown[] | undefined) ?? []).map((tool, i): OfferedTool => {
    const fn = isObject(tool) ? tool.function : undefined;
    if (!isObject(fn) || typeof fn.name !== 'string')
      throw new ChatError(
        400,
        `Invalid 'tools[${i}]': expected {"type": "function", "function": {"name": …, "parameters": …}}.`,
        'invalid_request_error',
        `tools[${i}]`,
      );
    return { name: fn.name, parameters: isObject(fn.parameters) ? fn.parameters : undefined };
  });
  const options = isObject(body.stream_options) ? body.stream_options : {};
  return {
    model: body.model,
    stream: body.stream === true,
    includeUsage: options.include_usage === true,
    messages: body.messages as ChatMessage[],
    tools,
  };
}

/** A message's text, whether sent as a string or as content parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/**
 * Where a call falls: the turn is the conversation's n-th user message, the round how many answers the model
 * gave since it (an HTTP error adds none, so a retried call asks for the same round again).
 */
export function positionOf(messages: readonly ChatMessage[]): { turn: number; round: number; prompt: string } {
  let turn = 0;
  let round = 0;
  let prompt = '';
  for (const message of messages) {
    if (message.role === 'user') {
      turn += 1;
      round = 0;
      prompt = textOf(message.content);
    } else if (message.role === 'assistant') round += 1;
  }
  return { turn, round, prompt };
}

/**
 * A scripted tool call fitted to the tools the request offers: the name as offered (case aside), and each
 * argument the tool's schema does not know renamed to the property it ends or starts with (`filePath` to
 * `path`), or dropped where the schema admits no others. A tool not offered keeps its name: the runtime then
 * refuses it as it would refuse any model's.
 */
export function fitTool(
  call: { name: string; input: Record<string, unknown> },
  offered: readonly OfferedTool[],
): { name: string; input: Record<string, unknown> } {
  const tool =
    offered.find((t) => t.name === call.name) ?? offered.find((t) => t.name.toLowerCase() === call.name.toLowerCase());
  if (!tool) return call;
  const properties = tool.parameters?.properties;
  if (!isObject(properties)) return { name: tool.name, input: call.input };
  const known = Object.keys(properties);
  // Kept as entries, not assigned: an argument named `__proto__` or `constructor` is an argument like another.
  const kept: Array<[string, unknown]> = [];
  const taken = new Set<string>();
  const strays: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(call.input)) {
    if (known.includes(key)) {
      kept.push([key, value]);
      taken.add(key);
    } else strays.push([key, value]);
  }
  for (const [key, value] of strays) {
    const lower = key.toLowerCase();
    const near = known.find(
      (p) => !taken.has(p) && (lower.endsWith(p.toLowerCase()) || lower.startsWith(p.toLowerCase())),
    );
    if (near) {
      kept.push([near, value]);
      taken.add(near);
    } else if (tool.parameters?.additionalProperties !== false) kept.push([key, value]);
  }
  return { name: tool.name, input: Object.fromEntries(kept) };
}
