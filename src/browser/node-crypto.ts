/**
 * `node:crypto` as the browser build's core uses it: hashes (`hash.ts`), random bytes from WebCrypto, and a
 * comparison that takes the same time whatever the bytes.
 */
import { Buffer } from './buffer.js';
import { sha1, sha256 } from './hash.js';

const ALGORITHMS: Record<string, (message: Uint8Array) => Uint8Array> = { sha1, sha256 };

export function createHash(algorithm: string) {
  const digestOf = ALGORITHMS[algorithm];
  if (!digestOf) throw new Error(`the browser build has no ${algorithm} hash`);
  const parts: Uint8Array[] = [];
  const hash = {
    update(data: string | Uint8Array, encoding?: string) {
      parts.push(typeof data === 'string' ? Buffer.from(data, (encoding ?? 'utf8') as 'utf8') : data);
      return hash;
    },
    digest(encoding?: 'hex' | 'base64' | 'base64url') {
      const digest = Buffer.from(digestOf(Buffer.concat(parts)));
      return encoding ? digest.toString(encoding) : digest;
    },
  };
  return hash;
}

export function randomBytes(size: number): Buffer {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(size)));
}

export function randomUUID(): string {
  return globalThis.crypto.randomUUID();
}

export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) throw new RangeError('Input buffers must have the same byte length');
  let difference = 0;
  a.forEach((byte, i) => (difference |= byte ^ (b[i] as number)));
  return difference === 0;
}
