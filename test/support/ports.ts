import { createServer } from 'node:net';

/** A loopback port that was free a moment ago (nothing listens there until someone binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
