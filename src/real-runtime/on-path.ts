/** Whether a command is on PATH, as a child process started with this environment would find it. */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}
