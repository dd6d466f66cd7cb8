/**
 * The rest of Node's modules the core's import graph names, for the browser build: what the core calls
 * (URL paths, deep equality) works; what only Node's servers and clients use refuses with a sentence.
 */
function nodeOnly(what: string): never {
  throw new Error(`${what} needs Node: the browser build of session-agent-sim answers in-process only`);
}

export function fileURLToPath(url: string | URL): string {
  return decodeURIComponent(new URL(url).pathname);
}

export function pathToFileURL(path: string): URL {
  return new URL(`file://${path}`);
}

export function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) =>
      Object.hasOwn(b, key) &&
      isDeepStrictEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

export const parseArgs = (): never => nodeOnly('parseArgs');
export const createRequire = (): never => nodeOnly('require');
export const createServer = (): never => nodeOnly('an HTTP server');
export const connect = (): never => nodeOnly('a socket');
export const request = (): never => nodeOnly('an HTTP request');
export class ServerResponse {}
export class IncomingMessage {}
export class Server {}
export class Agent {}
export default { createRequire, request, Agent };
