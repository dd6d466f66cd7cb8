/**
 * The `buffer` package as Node's `Buffer`, plus the one encoding the core uses that the package lacks:
 * `base64url` (cursors and tokens), read and written through base64.
 */
import { Buffer } from 'buffer';

const toBase64 = (text: string) => text.replace(/-/g, '+').replace(/_/g, '/');
const toBase64Url = (text: string) => text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

type Encoding = BufferEncoding | undefined;

const toString = Buffer.prototype.toString;
Buffer.prototype.toString = function (this: Buffer, encoding?: string, start?: number, end?: number) {
  if (encoding === 'base64url') return toBase64Url(toString.call(this, 'base64', start, end));
  return toString.call(this, encoding as Encoding, start, end);
};

const from = Buffer.from.bind(Buffer) as (...args: unknown[]) => Buffer;
Buffer.from = function (value: unknown, encoding?: unknown, length?: unknown) {
  if (encoding === 'base64url' && typeof value === 'string') return from(toBase64(value), 'base64');
  return length === undefined
    ? encoding === undefined
      ? from(value)
      : from(value, encoding)
    : from(value, encoding, length);
} as typeof Buffer.from;

const byteLength = Buffer.byteLength.bind(Buffer);
Buffer.byteLength = ((value: string, encoding?: string) =>
  encoding === 'base64url'
    ? byteLength(toBase64(value), 'base64')
    : byteLength(value, encoding as Encoding)) as typeof Buffer.byteLength;

const isEncoding = Buffer.isEncoding.bind(Buffer);
Buffer.isEncoding = (encoding: string): encoding is BufferEncoding => encoding === 'base64url' || isEncoding(encoding);

export { Buffer };
