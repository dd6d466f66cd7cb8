/**
 * One server-sent-events subscriber: frames go out as the consumer takes them. A consumer that stops taking
 * them is dropped once 256 frames (the real server's subscriber buffer) or 256 KiB wait for it after it had a
 * second to read, so a stalled browser tab cannot grow the simulator's memory. A burst that one clock advance
 * releases at once (a long scripted turn) may queue more for that second, up to eight times the frames and four
 * times the bytes, so a consumer that keeps up is not dropped for reading after the burst. The stream ends
 * cleanly when the subscriber is closed.
 */
import { Readable } from 'node:stream';

/** The headers the real server sends with its event streams. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-content-type-options': 'nosniff',
  'x-accel-buffering': 'no',
};

export const SUBSCRIBER_BUFFER = 256;
/** However small its frames, a subscriber that stops reading holds at most this much. */
export const SUBSCRIBER_BUFFER_BYTES = 256 * 1024;
/** How long a consumer past the buffer gets to read before it is dropped, in wall ms. */
export const CATCH_UP_MS = 1000;

export interface SseChannel {
  /** What the HTTP answer pipes to the client. */
  readonly stream: Readable;
  /** Sends one `data:` frame (a JSON text, one line). */
  send(json: string): void;
  /** Sends a frame made once by `sseFrame` for every subscriber it goes to (a broadcast encodes it once). */
  sendFrame(frame: Buffer): void;
  /** Sends an SSE comment (`: heartbeat`), which clients ignore and proxies see as traffic. */
  comment(text: string): void;
  /** Ends the stream after what is queued. */
  close(): void;
  readonly closed: boolean;
  /** Frames waiting for the consumer. */
  readonly queued: number;
  /** Called once, however the channel ended: closed, dropped for being slow, or the client went away. */
  onClose(listener: () => void): void;
}

export interface SseOptions {
  /** Frames that may wait for a slow consumer before it is dropped. */
  maxQueued?: number;
  /** Bytes that may wait for it (the frames' text), whichever limit comes first. */
  maxQueuedBytes?: number;
  /** Told when a slow consumer is dropped. */
  onDrop?: () => void;
  /** How long a consumer past the limits gets to catch up before it is dropped. */
  catchUpMs?: number;
}

/** One `data:` frame as the bytes that go on the wire. */
export function sseFrame(json: string): Buffer {
  return Buffer.from(`data: ${json}\n\n`);
}

/** Comments are a handful of fixed texts (`heartbeat`, `keep-alive`): each encoded once. */
const comments = new Map<string, Buffer>();
function commentFrame(text: string): Buffer {
  let frame = comments.get(text);
  if (!frame) {
    frame = Buffer.from(`: ${text}\n\n`);
    if (comments.size < 16) comments.set(text, frame);
  }
  return frame;
}

export function createSseChannel(options: SseOptions = {}): SseChannel {
  const maxQueued = options.maxQueued ?? SUBSCRIBER_BUFFER;
  const maxQueuedBytes = options.maxQueuedBytes ?? SUBSCRIBER_BUFFER_BYTES;
  const queue: Buffer[] = [];
  let queuedBytes = 0;
  const listeners: Array<() => void> = [];
  let wanted = false;
  let closed = false;
  let ending = false;

  const finish = () => {
    if (closed) return;
    closed = true;
    clearTimeout(catchUp);
    queue.length = 0;
    queuedBytes = 0;
    for (const listener of listeners.splice(0)) listener();
  };

  // Frames wait in `queue` until the consumer reads; the Readable itself holds at most one frame, so the
  // queue's length is exactly how far behind the consumer is.
  const flush = () => {
    while (wanted && queue.length) {
      const frame = queue.shift() as Buffer;
      queuedBytes -= frame.length;
      wanted = stream.push(frame);
    }
    if (ending && queue.length === 0) stream.push(null);
  };

  const stream = new Readable({
    highWaterMark: 0,
    read() {
      wanted = true;
      flush();
    },
    destroy(error, callback) {
      finish();
      callback(error);
    },
  });
  stream.once('end', finish);

  const drop = () => {
    if (closed) return;
    options.onDrop?.();
    stream.destroy();
  };
  const behind = () => queue.length > maxQueued || queuedBytes > maxQueuedBytes;
  let catchUp: NodeJS.Timeout | undefined;

  const enqueue = (frame: Buffer) => {
    if (closed || ending) return;
    // The first frame always goes in, however large: a hello must not drop the consumer it greets.
    if (queue.length > 0 && (queue.length >= maxQueued * 8 || queuedBytes + frame.length > maxQueuedBytes * 4)) {
      drop();
      return;
    }
    queue.push(frame);
    queuedBytes += frame.length;
    flush();
    if (behind() && !catchUp) {
      catchUp = setTimeout(() => {
        catchUp = undefined;
        if (behind()) drop();
      }, options.catchUpMs ?? CATCH_UP_MS);
      catchUp.unref();
    }
  };

  return {
    stream,
    send: (json) => enqueue(sseFrame(json)),
    sendFrame: enqueue,
    comment: (text) => enqueue(commentFrame(text)),
    close() {
      if (closed || ending) return;
      ending = true;
      flush();
    },
    get closed() {
      return closed;
    },
    get queued() {
      return queue.length;
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
}
