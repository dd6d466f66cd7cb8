/**
 * What a runtime sends the scripted model: a Chat Completions body read (or refused in the OpenAI error
 * shape), where in the conversation a call falls, and a scripted tool call fitted to the tools offered.
 */
import { describe, expect, it } from 'vitest';
import {
  ChatError,
  fitTool,
  positionOf,
  readChatRequest,
  textOf,
  type ChatMessage,
  type OfferedTool,
} from '../../../src/scripted-model/chat-request.js';

const MINIMAL = { model: 'scripted', messages: [{ role: 'user', content: 'Hello' }] };

/** The ChatError reading `text` throws, failing the test when it throws none or another. */
function refusal(text: string): ChatError {
  try {
    readChatRequest(text);
  } catch (error) {
    if (error instanceof ChatError) return error;
    throw error;
  }
  throw new Error(`expected ${text} to be refused`);
}

const body = (extra: Record<string, unknown>) => JSON.stringify({ ...MINIMAL, ...extra });

describe('readChatRequest', () => {
  it('reads a minimal body: no stream, no usage, no tools', () => {
    expect(readChatRequest(JSON.stringify(MINIMAL))).toStrictEqual({
      model: 'scripted',
      stream: false,
      includeUsage: false,
      messages: [{ role: 'user', content: 'Hello' }],
      tools: [],
    });
  });

  it('reads stream, stream_options.include_usage and the offered tools', () => {
    const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    const request = readChatRequest(
      body({
        stream: true,
        stream_options: { include_usage: true },
        tools: [
          { type: 'function', function: { name: 'read', parameters } },
          { type: 'function', function: { name: 'bash', parameters: 'not a schema' } },
        ],
      }),
    );
    expect(request.stream).toBe(true);
    expect(request.includeUsage).toBe(true);
    expect(request.tools.map((tool) => tool.name)).toEqual(['read', 'bash']);
    expect(request.tools[0]?.parameters).toEqual(parameters);
    expect(request.tools[1]?.parameters).toBeUndefined();
  });

  it('reads stream false and include_usage false as such', () => {
    const request = readChatRequest(body({ stream: false, stream_options: { include_usage: false } }));
    expect(request.stream).toBe(false);
    expect(request.includeUsage).toBe(false);
  });

  it('refuses a body that is not JSON, in the OpenAI error shape', () => {
    const error = refusal('{"model": ');
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(400);
    expect(error.param).toBeNull();
    expect(error.type).toBe('invalid_request_error');
    expect(error.body()).toStrictEqual({
      error: { message: error.message, type: 'invalid_request_error', param: null, code: null },
    });
    expect(error.message).toMatch(/could not parse the JSON body/);
  });

  it('refuses a JSON array', () => {
    const error = refusal(JSON.stringify([MINIMAL]));
    expect(error.status).toBe(400);
    expect(error.param).toBeNull();
    expect(error.message).toBe('The request body must be a JSON object.');
  });

  it('refuses a JSON null or string', () => {
    expect(refusal('null').status).toBe(400);
    expect(refusal('"hi"').status).toBe(400);
  });

  it('refuses a body without a model', () => {
    const error = refusal(JSON.stringify({ messages: MINIMAL.messages }));
    expect(error.status).toBe(400);
    expect(error.param).toBe('model');
    expect(error.body()).toStrictEqual({
      error: {
        message: 'you must provide a model parameter',
        type: 'invalid_request_error',
        param: 'model',
        code: null,
      },
    });
    expect(refusal(body({ model: '' })).param).toBe('model');
    expect(refusal(body({ model: 7 })).param).toBe('model');
  });

  it('refuses empty or missing messages', () => {
    const empty = refusal(body({ messages: [] }));
    expect(empty.status).toBe(400);
    expect(empty.param).toBe('messages');
    expect(empty.body().error.param).toBe('messages');
    expect(refusal(JSON.stringify({ model: 'scripted' })).param).toBe('messages');
    expect(refusal(body({ messages: 'Hello' })).param).toBe('messages');
  });

  it('refuses a message without a role, naming it', () => {
    const error = refusal(body({ messages: [{ role: 'system', content: 's' }, { content: 'no role' }] }));
    expect(error.status).toBe(400);
    expect(error.param).toBe('messages[1]');
    expect(error.body()).toStrictEqual({
      error: {
        message: "Invalid 'messages[1]': expected an object with a string 'role' (system, user, assistant or tool).",
        type: 'invalid_request_error',
        param: 'messages[1]',
        code: null,
      },
    });
    expect(refusal(body({ messages: ['Hello'] })).param).toBe('messages[0]');
    expect(refusal(body({ messages: [{ role: 1, content: 'x' }] })).param).toBe('messages[0]');
  });

  it('refuses a stream that is not a boolean', () => {
    const error = refusal(body({ stream: 'true' }));
    expect(error.status).toBe(400);
    expect(error.param).toBe('stream');
    expect(error.body().error).toStrictEqual({
      message: "Invalid 'stream': expected a boolean.",
      type: 'invalid_request_error',
      param: 'stream',
      code: null,
    });
  });

  it('refuses tools that are not an array', () => {
    const error = refusal(body({ tools: { type: 'function', function: { name: 'read' } } }));
    expect(error.status).toBe(400);
    expect(error.param).toBe('tools');
    expect(error.body().error.message).toBe("Invalid 'tools': expected an array.");
  });

  it('refuses a tool without function.name, naming it', () => {
    const tools = [
      { type: 'function', function: { name: 'read' } },
      { type: 'function', function: {} },
    ];
    const error = refusal(body({ tools }));
    expect(error.status).toBe(400);
    expect(error.param).toBe('tools[1]');
    expect(error.body().error.param).toBe('tools[1]');
    expect(error.body().error.code).toBeNull();
    expect(refusal(body({ tools: [{ type: 'function', name: 'read' }] })).param).toBe('tools[0]');
    expect(refusal(body({ tools: [{ type: 'function', function: { name: 3 } }] })).param).toBe('tools[0]');
  });
});

describe('textOf', () => {
  it('reads a string as itself', () => {
    expect(textOf('Fix the bug')).toBe('Fix the bug');
    expect(textOf('')).toBe('');
  });

  it('joins the text of content parts, one a line, skipping parts without text', () => {
    expect(
      textOf([
        { type: 'text', text: 'first' },
        { type: 'image_url', image_url: { url: 'data:' } },
        'loose string',
        { type: 'text', text: '' },
        { type: 'text', text: 'second' },
      ]),
    ).toBe('first\nsecond');
  });

  it('reads anything else as no text', () => {
    expect(textOf(undefined)).toBe('');
    expect(textOf(null)).toBe('');
    expect(textOf({ text: 'not a part list' })).toBe('');
  });
});

describe('positionOf', () => {
  const system: ChatMessage = { role: 'system', content: 'You are an agent.' };
  const toolCall: ChatMessage = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1' }] };
  const toolResult: ChatMessage = { role: 'tool', content: 'result' };

  it('places the first call of the first turn at round 0', () => {
    expect(positionOf([system, { role: 'user', content: 'a' }])).toEqual({ turn: 1, round: 0, prompt: 'a' });
  });

  it('counts the answers given since the last user message as the round', () => {
    const messages: ChatMessage[] = [
      system,
      { role: 'user', content: 'a' },
      toolCall,
      toolResult,
      { role: 'assistant', content: 'reading more', tool_calls: [{ id: 'call_2' }] },
      toolResult,
    ];
    expect(positionOf(messages)).toEqual({ turn: 1, round: 2, prompt: 'a' });
  });

  it('starts a new turn at round 0 on the next user message, with its prompt', () => {
    const messages: ChatMessage[] = [
      system,
      { role: 'user', content: 'a' },
      toolCall,
      toolResult,
      { role: 'assistant', content: 'done' },
      { role: 'user', content: [{ type: 'text', text: 'b' }] },
    ];
    expect(positionOf(messages)).toEqual({ turn: 2, round: 0, prompt: 'b' });
    expect(positionOf([...messages, toolCall, toolResult])).toEqual({ turn: 2, round: 1, prompt: 'b' });
  });

  it('is turn 0 with no prompt when no user has spoken', () => {
    expect(positionOf([system])).toEqual({ turn: 0, round: 0, prompt: '' });
    expect(positionOf([])).toEqual({ turn: 0, round: 0, prompt: '' });
  });
});

describe('fitTool', () => {
  const read: OfferedTool = {
    name: 'read',
    parameters: { properties: { path: { type: 'string' }, offset: { type: 'number' } }, required: ['path'] },
  };
  const strict: OfferedTool = {
    name: 'Write',
    parameters: { properties: { path: {}, content: {} }, additionalProperties: false },
  };

  it('renames an argument to the offered property it ends with', () => {
    expect(fitTool({ name: 'read', input: { filePath: 'a.ts', offset: 3 } }, [read])).toStrictEqual({
      name: 'read',
      input: { path: 'a.ts', offset: 3 },
    });
  });

  it('renames an argument to the offered property it starts with', () => {
    expect(fitTool({ name: 'read', input: { offsetLines: 10, path: 'a.ts' } }, [read])).toStrictEqual({
      name: 'read',
      input: { path: 'a.ts', offset: 10 },
    });
  });

  it('keeps the arguments the schema knows as they are', () => {
    expect(fitTool({ name: 'read', input: { path: 'a.ts' } }, [read]).input).toStrictEqual({ path: 'a.ts' });
  });

  it('does not rename onto a property the call already gives', () => {
    expect(fitTool({ name: 'read', input: { path: 'a.ts', filePath: 'b.ts' } }, [read]).input).toStrictEqual({
      path: 'a.ts',
      filePath: 'b.ts',
    });
  });

  it('keeps unknown arguments when the schema admits others', () => {
    expect(fitTool({ name: 'read', input: { path: 'a.ts', limit: 5 } }, [read]).input).toStrictEqual({
      path: 'a.ts',
      limit: 5,
    });
  });

  it('drops unknown arguments when the schema admits no others', () => {
    expect(fitTool({ name: 'Write', input: { filePath: 'a.ts', content: 'x', mode: 'w' } }, [strict])).toStrictEqual({
      name: 'Write',
      input: { path: 'a.ts', content: 'x' },
    });
  });

  it('matches the tool name case aside, returning the offered spelling', () => {
    expect(fitTool({ name: 'write', input: { path: 'a', content: 'b' } }, [read, strict]).name).toBe('Write');
    expect(fitTool({ name: 'READ', input: { path: 'a' } }, [read]).name).toBe('read');
  });

  it('prefers the exact name over one that matches case aside', () => {
    const lower: OfferedTool = { name: 'write', parameters: { properties: { text: {} } } };
    expect(fitTool({ name: 'write', input: { text: 't' } }, [strict, lower])).toStrictEqual({
      name: 'write',
      input: { text: 't' },
    });
  });

  it('returns a tool not offered unchanged', () => {
    const call = { name: 'edit', input: { filePath: 'a.ts', junk: 1 } };
    expect(fitTool(call, [read, strict])).toBe(call);
    expect(fitTool(call, [])).toBe(call);
  });

  it('keeps the input of a tool offered without a parameters schema', () => {
    const input = { filePath: 'a.ts', anything: true };
    expect(fitTool({ name: 'READ', input }, [{ name: 'read' }])).toStrictEqual({ name: 'read', input });
    expect(fitTool({ name: 'read', input }, [{ name: 'read', parameters: {} }])).toStrictEqual({
      name: 'read',
      input,
    });
  });

  it('keeps arguments named like the built-ins of an object, and renames onto such properties', () => {
    const input = JSON.parse('{"__proto__":{"a":1},"path":"p"}') as Record<string, unknown>;
    const loose: OfferedTool = { name: 'x', parameters: { properties: { path: {} } } };
    const fitted = fitTool({ name: 'x', input }, [loose]).input;
    expect(Object.keys(fitted)).toEqual(['path', '__proto__']);
    expect(Object.getPrototypeOf(fitted)).toBe(Object.prototype);
    const builtin: OfferedTool = { name: 'y', parameters: { properties: { constructor: {} } } };
    expect(Object.keys(fitTool({ name: 'y', input: { Constructor: 1 } }, [builtin]).input)).toEqual(['constructor']);
  });
});
