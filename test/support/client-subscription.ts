/**
 * A subscription to the event stream through the official client, as the kind tests use it: the frames kept
 * as they come, resolved once `server.connected` arrived, and stopped by aborting. The client never retries,
 * so a stream that ends shows as it is.
 */
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client';
import { until } from './until.js';

type Client = ReturnType<typeof createOpencodeClient>;

export interface ClientSubscription<F> {
  frames: F[];
  stop(): void;
}

/** `target`: a base URL (a partition's carries its prefix), or a client made already. */
export async function subscribeWithClient<F = { type: string }>(
  target: string | Client,
): Promise<ClientSubscription<F>> {
  const client = typeof target === 'string' ? createOpencodeClient({ baseUrl: target }) : target;
  const controller = new AbortController();
  const { stream } = await client.v2.event.subscribe({ signal: controller.signal, sseMaxRetryAttempts: 0 });
  const frames: F[] = [];
  void (async () => {
    try {
      for await (const event of stream) frames.push(event as unknown as F);
    } catch {
      // aborted by stop()
    }
  })();
  await until(() => frames.length > 0, 'server.connected');
  return { frames, stop: () => controller.abort() };
}
