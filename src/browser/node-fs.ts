/**
 * `node:fs` in the browser build: there is no filesystem, so nothing exists and nothing can be written. The
 * parts of the core that read files (the spec, scenarios by path, the load cache) have browser twins that read
 * from the bundle instead; what still reaches here is a Node-only feature, and says so.
 */
function unavailable(what: string): never {
  const error = new Error(`${what}: the browser build of session-agent-sim has no filesystem`) as Error & {
    code: string;
  };
  error.code = 'ENOENT';
  throw error;
}

export const existsSync = (): boolean => false;
export const readFileSync = (path: unknown): never => unavailable(`read ${String(path)}`);
export const readdirSync = (path: unknown): never => unavailable(`list ${String(path)}`);
export const statSync = (path: unknown): never => unavailable(`stat ${String(path)}`);
export const writeFileSync = (path: unknown): never => unavailable(`write ${String(path)}`);
export const mkdirSync = (path: unknown): never => unavailable(`make ${String(path)}`);
export const renameSync = (path: unknown): never => unavailable(`rename ${String(path)}`);
export const rmSync = (path: unknown): never => unavailable(`remove ${String(path)}`);
export const watch = (path: unknown): never => unavailable(`watch ${String(path)}`);
export default { existsSync, readFileSync, readdirSync, statSync, writeFileSync, mkdirSync, renameSync, rmSync, watch };
