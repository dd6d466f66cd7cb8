/**
 * The scripted model over real sockets, as a runtime's OpenAI-compatible client calls it: streamed and whole
 * answers, the rounds of a turn, retries, failures, matching, what no script covers, and bad requests. The
 * same model in front of the real server is in test/real-server/scripted-model-real.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel, type ScriptedModelOptions } from '../../src/index.js';
import { BIN, startCli } from '../support/cli-process.js';

const TOOLS = [
  { type: 'function', function: { name: 'bash', parameters: { type: 'object', properties: { command: {} } } } },
  {
    type: 'function',
    function: {
      name: 'read',
      parameters: { type: 'object', properties: { path: {} }, required: ['path'], additionalProperties: false },
    },
  },
];

const SCENARIO = {
  name: 'model-test',
  seed: 'model-test',
  sessions: [{ id: 'ses_one' }, { id: 'ses_two' }],
  turns: [
    {
      session: 'ses_one',
      prompt: 'readme',
      steps: [
        { reasoning: 'Look at the readme first.' },
        { tool: 'read', input: { path: 'README.md' } },
        { retry: { message: 'Overloaded', statusCode: 529, wait: '2500ms' } },
        { text: 'The readme says hello.' },
      ],
    },
    { session: 'ses_two', prompt: 'refuse', steps: [{ fail: 'The model refused' }] },
    { session: 'ses_one', steps: [{ text: 'Second turn of ses_one.' }] },
  ],
};

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function start(options: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  model = await startScriptedModel({ scenario: SCENARIO, pace: 0, ...options });
  return model;
}

interface Message {
  role: string;
  content?: string | null;
  tool_calls?: unknown[];
  tool_call_id?: string;
}

function chat(
  url: string,
  messages: Message[],
  { stream = true, session = 'ses_real_1', tools = TOOLS as unknown[], signal }: Record<string, unknown> = {},
) {
  return fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-id': session as string },
    body: JSON.stringify({
      model: 'scripted-1',
      stream,
      stream_options: { include_usage: true },
      messages,
      tools,
    }),
    signal: signal as AbortSignal | undefined,
  });
}

/** The `data:` payloads of an event stream, `[DONE]` as the string. */
async function chunks(res: Response): Promise<unknown[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice(6))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}

type Chunk = { choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>; usage?: unknown };

function joined(list: unknown[], field: string): string {
  return (list as Chunk[])
    .flatMap((c) => (Array.isArray(c.choices) ? c.choices : []))
    .map((c) => (typeof c.delta[field] === 'string' ? (c.delta[field] as string) : ''))
    .join('');
}

describe('the scripted model', () => {
  it("plays a turn's rounds call by call: stream, tool calls fitted to the offered tools, a retry, the rest", async () => {
    const { url } = await start();
    const first: Message[] = [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'Summarise the README please' },
    ];
    const res = await chat(url, first);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const list = await chunks(res);
    expect(list.at(-1)).toBe('[DONE]');
    expect(joined(list, 'reasoning_content')).toBe('Look at the readme first.');
    const calls = (list as Chunk[])
      .flatMap((c) => (Array.isArray(c.choices) ? c.choices : []))
      .flatMap(
        (c) => (c.delta.tool_calls as Array<{ id?: string; function: { name?: string; arguments: string } }>) ?? [],
      );
    expect(calls[0]).toMatchObject({ id: expect.stringMatching(/^call_/), function: { name: 'read', arguments: '' } });
    expect(JSON.parse(calls.map((c) => c.function.arguments).join(''))).toEqual({ path: 'README.md' });
    const finish = (list as Chunk[]).flatMap((c) => c.choices ?? []).find((c) => c.finish_reason);
    expect(finish?.finish_reason).toBe('tool_calls');
    expect((list as Chunk[]).at(-2)).toMatchObject({ choices: [], usage: { completion_tokens: expect.any(Number) } });

    // The next round: the runtime ran the tool and asks again. Its first attempt is the scripted 529.
    const second: Message[] = [
      ...first,
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_x', type: 'function' }] },
      { role: 'tool', tool_call_id: 'call_x', content: 'hello' },
    ];
    const refused = await chat(url, second);
    expect(refused.status).toBe(529);
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(await refused.json()).toEqual({
      error: { message: 'Overloaded', type: 'server_error', param: null, code: null },
    });
    const retried = await chunks(await chat(url, second));
    expect(joined(retried, 'content')).toBe('The readme says hello.');
    expect((retried as Chunk[]).flatMap((c) => c.choices ?? []).find((c) => c.finish_reason)?.finish_reason).toBe(
      'stop',
    );
    expect(model?.stats()).toEqual({ calls: 3, unscripted: 0, abandoned: 0 });
  });

  it('answers whole when not asked to stream', async () => {
    const { url } = await start();
    const res = await chat(url, [{ role: 'user', content: 'readme' }], { stream: false });
    const body = (await res.json()) as { object: string; choices: Array<{ message: Record<string, unknown> }> };
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]?.message).toMatchObject({
      role: 'assistant',
      content: null,
      reasoning_content: 'Look at the readme first.',
      tool_calls: [{ type: 'function', function: { name: 'read', arguments: '{"path":"README.md"}' } }],
    });
  });

  it('drops a stream mid-answer where a retry says cut, then answers the retried attempt', async () => {
    const scenario = {
      ...SCENARIO,
      turns: [
        {
          session: 'ses_one',
          steps: [{ text: 'Half an answer' }, { retry: { message: 'reset', cut: true } }, { text: 'Whole.' }],
        },
      ],
    };
    const { url } = await start({ scenario });
    const first = await chat(url, [{ role: 'user', content: 'go' }]);
    expect(first.status).toBe(200);
    const reader = (first.body as ReadableStream<Uint8Array>).getReader();
    let received = '';
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return received;
          received += Buffer.from(value).toString('utf8');
        }
      })(),
    ).rejects.toThrow();
    expect(received).toContain('"content":"Half an answer"');
    expect(received).not.toContain('[DONE]');
    expect(joined(await chunks(await chat(url, [{ role: 'user', content: 'go' }])), 'content')).toBe('Whole.');
    expect(model?.stats()).toEqual({ calls: 2, unscripted: 0, abandoned: 0 });
  });

  it('ends a turn with a client error where the script fails', async () => {
    const { url } = await start({ match: 'prompt' });
    const res = await chat(url, [{ role: 'user', content: 'Please REFUSE this' }], { stream: false });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: 'The model refused', type: 'invalid_request_error' } });
  });

  it('matches in order, by session, or by prompt, as asked', async () => {
    const text = async (url: string, session: string, messages: Message[]) =>
      joined(await chunks(await chat(url, messages, { session })), 'content') ||
      joined(await chunks(await chat(url, messages, { session })), 'reasoning_content');
    const u1: Message = { role: 'user', content: 'anything' };
    const u2: Message = { role: 'user', content: 'and then' };
    const answered: Message = { role: 'assistant', content: 'ok' };

    // order: each new prompt, whichever conversation, plays the next turn of the list.
    let { url } = await start({ match: 'order' });
    expect((await chat(url, [u1], { session: 'a', stream: false })).status).toBe(200);
    expect((await chat(url, [u1], { session: 'b', stream: false })).status).toBe(400);
    expect(await text(url, 'c', [u1])).toBe('Second turn of ses_one.');
    await model?.close();

    // session: a runtime session takes the next scenario session with turns, and plays its turns in order.
    ({ url } = await start({ match: 'session' }));
    expect(await text(url, 'a', [u1, answered, u2])).toBe('Second turn of ses_one.');
    expect((await chat(url, [u1], { session: 'b', stream: false })).status).toBe(400);
    await model?.close();

    // prompt: the first turn whose prompt the user's text contains; none, a short answer.
    ({ url } = await start({ match: 'prompt' }));
    const unscripted = await text(url, 'a', [{ role: 'user', content: 'Add a dark mode toggle' }]);
    expect(unscripted.length).toBeGreaterThan(10);
    expect(model?.stats().unscripted).toBeGreaterThan(0);
  });

  it("gives a title where no tools are offered, and follows the scenario's own match", async () => {
    const scenario = { ...SCENARIO, scriptedModel: { match: 'prompt' } };
    const { url } = await start({ scenario });
    const title = await chunks(
      await chat(url, [{ role: 'user', content: 'fix the flaky login test on CI today' }], { tools: [] }),
    );
    expect(joined(title, 'content')).toBe('Fix the flaky login test on');
    const matched = await chunks(await chat(url, [{ role: 'user', content: 'readme?' }]));
    expect(joined(matched, 'reasoning_content')).toBe('Look at the readme first.');
  });

  it('plays pauses in wall time, and a long one hangs until the client gives up', async () => {
    const scenario = {
      ...SCENARIO,
      turns: [{ session: 'ses_one', steps: [{ text: 'Never sent.', after: '1h' }] }],
    };
    const { url } = await start({ scenario, pace: 1 });
    const abort = new AbortController();
    const started = Date.now();
    const pending = chat(url, [{ role: 'user', content: 'hi' }], { signal: abort.signal });
    setTimeout(() => abort.abort(), 300);
    await expect(pending.then((res) => res.text())).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses bad requests in the OpenAI error shape, never with a crash', async () => {
    const { url } = await start({ apiKey: 'sk-test-key' });
    const base = url.replace(/\/v1$/, '');
    const auth = { authorization: 'Bearer sk-test-key', 'content-type': 'application/json' };
    const post = (body: string, headers: Record<string, string> = auth) =>
      fetch(`${url}/chat/completions`, { method: 'POST', headers, body });
    const cases: Array<[Promise<Response>, number, RegExp]> = [
      [post('{"model":"m","messages":[]}', { 'content-type': 'application/json' }), 401, /Incorrect API key/],
      [post('not json'), 400, /could not parse the JSON body/],
      [post('[1]'), 400, /must be a JSON object/],
      [post('{"messages":[{"role":"user","content":"x"}]}'), 400, /model parameter/],
      [post('{"model":"m","messages":[]}'), 400, /non-empty array/],
      [post('{"model":"m","messages":[{"content":"x"}]}'), 400, /messages\[0\]/],
      [post('{"model":"m","messages":[{"role":"user"}],"stream":"yes"}'), 400, /'stream'/],
      [post('{"model":"m","messages":[{"role":"user"}],"tools":[{"type":"function"}]}'), 400, /tools\[0\]/],
      [fetch(`${url}/chat/completions`, { headers: auth }), 405, /send POST/],
      [fetch(`${base}/v2/other`, { headers: auth }), 404, /Unknown request URL/],
    ];
    for (const [made, status, message] of cases) {
      const res = await made;
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/json');
      const body = (await res.json()) as { error: { message: string; type: string } };
      expect(body.error.message).toMatch(message);
      expect(typeof body.error.type).toBe('string');
    }
    const models = await fetch(`${url}/models`, { headers: auth });
    expect(await models.json()).toEqual({
      object: 'list',
      data: [{ id: 'scripted-1', object: 'model', created: 0, owned_by: 'session-agent-sim' }],
    });
  });

  it("keeps its answers to a turn's calls, and gives them again exactly from the recording", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-model-tape-'));
    const file = join(dir, 'model.json');
    const first: Message[] = [{ role: 'user', content: 'readme' }];
    const second: Message[] = [...first, { role: 'assistant', content: null }, { role: 'tool', content: 'hi' }];
    const play = async (url: string) => {
      const out: Array<[number, string]> = [];
      for (const messages of [first, second, second]) {
        const res = await chat(url, messages);
        out.push([res.status, await res.text()]);
      }
      // A call offering no tools (a title) is neither kept nor replayed.
      await chat(url, first, { tools: [] });
      return out;
    };
    try {
      const recorded = await play((await start({ record: file })).url);
      expect(recorded.map(([status]) => status)).toEqual([200, 529, 200]);
      await model?.close();
      const tape = JSON.parse(readFileSync(file, 'utf8')) as { format: string; calls: Array<Record<string, unknown>> };
      expect(tape.format).toBe('session-agent-sim model recording 1');
      expect(tape.calls.map((c) => [c.turn, c.round, c.attempt, c.status])).toEqual([
        [1, 0, 0, 200],
        [1, 1, 0, 529],
        [1, 1, 1, 200],
      ]);
      expect(JSON.stringify(tape)).not.toContain('authorization');

      // Another scenario, whose turns say something else: the recording answers the turn it holds.
      const other = { ...SCENARIO, turns: [{ session: 'ses_one', steps: [{ text: 'Something else.' }] }] };
      const replayed = await play((await start({ scenario: other, replay: file })).url);
      expect(replayed).toEqual(recorded);
      // Past what it holds, the scenario answers.
      const next = await chunks(await chat(model?.url as string, first, { session: 'another' }));
      expect(joined(next, 'content')).toBe('Something else.');
      await model?.close();

      writeFileSync(file, '{"calls": []}');
      await expect(start({ replay: file })).rejects.toThrow(/is no model recording/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says how to wire a runtime to it', async () => {
    const started = await start({ provider: 'fake', model: 'fake-1' });
    expect(started.config()).toEqual({
      provider: {
        fake: {
          npm: '@ai-sdk/openai-compatible',
          name: 'session-agent-sim scripted model',
          options: { baseURL: started.url, apiKey: 'sk-scripted' },
          models: { 'fake-1': { name: 'Scripted model' } },
        },
      },
      model: 'fake/fake-1',
    });
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });
});

describe('session-agent-sim model', () => {
  it('prints the opencode.json for a port, and refuses a mistyped flag value', () => {
    const printed = spawnSync(process.execPath, [BIN, 'model', '--print-config', '--port', '4999'], {
      encoding: 'utf8',
    });
    expect(printed.status).toBe(0);
    const config = JSON.parse(printed.stdout) as { model: string; provider: Record<string, { options: unknown }> };
    expect(config.model).toBe('sim/scripted-1');
    expect(config.provider.sim?.options).toEqual({ baseURL: 'http://127.0.0.1:4999/v1', apiKey: 'sk-scripted' });
    const wrong = spawnSync(process.execPath, [BIN, 'model', '--match', 'ordr'], { encoding: 'utf8' });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('Did you mean "order"?');
  });

  it('serves on loopback until SIGTERM', async () => {
    await startCli(['model', '--port', '0', '--pace', '0'], async (url) => {
      expect(url).toMatch(/\/v1$/);
      const res = await chat(url, [{ role: 'user', content: 'Add an avatar' }], { stream: false });
      const body = (await res.json()) as { choices: Array<{ message: { reasoning_content?: string } }> };
      expect(body.choices[0]?.message.reasoning_content).toMatch(/^The design system already ships an Avatar/);
    });
  });
});
