import { describe, expect, it } from 'vitest';
import { createSseChannel } from '../../../src/http/sse.js';

async function read(channel: ReturnType<typeof createSseChannel>): Promise<string> {
  let text = '';
  for await (const chunk of channel.stream) text += String(chunk);
  return text;
}

describe('an SSE channel', () => {
  it('frames data and comments, and ends after what is queued', async () => {
    const channel = createSseChannel();
    channel.send('{"a":1}');
    channel.comment('heartbeat');
    channel.close();
    expect(await read(channel)).toBe('data: {"a":1}\n\n: heartbeat\n\n');
    expect(channel.closed).toBe(true);
  });

  it('drops a consumer that stays a whole buffer behind once it had time to read, and holds nothing after', async () => {
    let dropped = 0;
    let closed = 0;
    const channel = createSseChannel({ maxQueued: 4, catchUpMs: 20, onDrop: () => dropped++ });
    channel.onClose(() => closed++);
    for (let i = 0; i < 10; i++) channel.send(`{"i":${i}}`);
    expect(dropped).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(dropped).toBe(1);
    expect(closed).toBe(1);
    expect(channel.closed).toBe(true);
    expect(channel.queued).toBe(0);
  });

  it('drops at once a consumer a burst would put eight buffers behind', () => {
    let dropped = 0;
    const channel = createSseChannel({ maxQueued: 4, onDrop: () => dropped++ });
    for (let i = 0; i < 40; i++) channel.send(`{"i":${i}}`);
    expect(dropped).toBe(1);
    expect(channel.closed).toBe(true);
  });

  it('keeps a consumer that reads a burst after it came', async () => {
    let dropped = 0;
    const channel = createSseChannel({ maxQueued: 4, catchUpMs: 20, onDrop: () => dropped++ });
    const text = read(channel);
    for (let i = 0; i < 20; i++) channel.send(`{"i":${i}}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    channel.close();
    expect((await text).match(/data:/g)).toHaveLength(20);
    expect(dropped).toBe(0);
  });

  it('keeps a consumer that reads', async () => {
    const channel = createSseChannel({ maxQueued: 4 });
    const text = read(channel);
    for (let i = 0; i < 20; i++) {
      channel.send(`{"i":${i}}`);
      await new Promise((r) => setImmediate(r));
    }
    channel.close();
    expect((await text).match(/data:/g)).toHaveLength(20);
  });
});
