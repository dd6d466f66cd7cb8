/**
 * The `process` the core and its Node-style dependencies (streams) meet in the browser build: an empty
 * environment, a microtask for `nextTick`, and the two output streams written to the console.
 */
const output = (write: (line: string) => void) => ({
  isTTY: false,
  write(text: string): boolean {
    write(text.replace(/\n$/, ''));
    return true;
  },
});

export const process = {
  env: {} as Record<string, string | undefined>,
  argv: [] as string[],
  pid: 0,
  platform: 'browser',
  version: '',
  versions: {} as Record<string, string>,
  browser: true,
  cwd: () => '/',
  nextTick: (callback: (...args: unknown[]) => void, ...args: unknown[]) => queueMicrotask(() => callback(...args)),
  emitWarning: () => {},
  stdout: output((line) => console.log(line)),
  stderr: output((line) => console.warn(line)),
};
