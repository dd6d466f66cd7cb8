/**
 * An event stream held open through a recorder while a flow runs, and the wait for the recorder to write it:
 * a recorder writes a stream only once the client lets go of it.
 */
import { readFileSync } from 'node:fs';

/** Subscribes to `${base}/api/event` and reads (discarding) until `stop()`. */
export async function holdEventStream(base: string): Promise<{ stop(): Promise<void> }> {
  const subscription = new AbortController();
  const stream = await fetch(`${base}/api/event`, { signal: subscription.signal });
  const reading = (async () => {
    try {
      for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) void chunk;
    } catch {
      // aborted by stop()
    }
  })();
  return {
    async stop() {
      subscription.abort();
      await reading;
    },
  };
}

/** Waits (up to 2 s) until the recording holds the event stream's interaction. */
export async function streamRecorded(recording: string): Promise<void> {
  for (let i = 0; i < 100 && !readFileSync(recording, 'utf8').includes('"path": "/api/event"'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}
