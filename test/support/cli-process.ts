/** The command line as a test runs it: the bin in a child process, its start-up line awaited. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const BIN = fileURLToPath(new URL('../../bin/session-agent-sim.js', import.meta.url));

/**
 * Starts the CLI, waits for its start-up line, and gives that line and the URL it serves on (its path
 * included, `…/v1` for the scripted model); then stops it with SIGTERM, which must end it with exit 0.
 */
export async function startCli(args: string[], use: (url: string, out: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let out = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start-up line in 15 s: ${out}`)), 15_000);
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        const match = /on (http:\/\/127\.0\.0\.1:\d+[^\s,]*)/.exec(out);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    await use(url, out);
  } finally {
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  }
}
