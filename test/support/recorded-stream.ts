/**
 * An event stream held open through a recorder while a flow runs, and the wait for the recorder to write it:
 * a recorder writes a stream only once the client lets go of it.
 */
import { readFileSync } from 'node:fs';

/** Subscribes to `${base}/api/event` and reads (discarding) until `stop()`. */
export async function holdEventStream(base: string): Promise<{ stop(): Promise<void> }> {
  const stream = await fetch(`${base}/api/event`);
  // A cancelled reader settles its pending read at once; an aborted fetch under nock's interceptor waits for the
  // stream's next chunk (up to a heartbeat, 15 s or more).
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  const reading = (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // cancelled by stop()
    }
  })();
  return {
    async stop() {
      await reader.cancel().catch(() => {});
      await reading;
    },
  };
}

/** Waits (up to 2 s) until the recording holds the event stream's interaction. */
export async function streamRecorded(recording: string): Promise<void> {
  for (let i = 0; i < 100 && !readFileSync(recording, 'utf8').includes('"path": "/api/event"'); i++)
    await new Promise((resolve) => setTimeout(resolve, 20));
}
