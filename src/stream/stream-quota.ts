/**
 * A cap on long-lived streams of one kind, shared by every partition: each open stream holds a socket and up
 * to a subscriber's buffer, so their number is what bounds the memory a crowd of (or a runaway loop of)
 * subscribers can take. It also knows every stream it let open, so a shutdown can end them all.
 */
import { SimStreamLimitError } from '../errors/errors.js';
import type { SseChannel } from '../http/sse.js';

export interface StreamQuota {
  /** Throws SimStreamLimitError when the cap is reached; call before opening anything. */
  claim(): void;
  /** Counts the channel until it closes. */
  hold(channel: SseChannel): void;
  readonly open: number;
  readonly max: number;
  /** Ends every open stream cleanly (what is queued is still sent). */
  endAll(): void;
}

export function createStreamQuota(kind: string, max: number, hint: string): StreamQuota {
  const channels = new Set<SseChannel>();
  return {
    claim() {
      if (channels.size >= max) throw new SimStreamLimitError(kind, max, hint);
    },
    hold(channel) {
      channels.add(channel);
      channel.onClose(() => channels.delete(channel));
    },
    get open() {
      return channels.size;
    },
    max,
    endAll() {
      for (const channel of [...channels]) channel.close();
    },
  };
}
