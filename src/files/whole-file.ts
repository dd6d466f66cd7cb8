/**
 * Files written whole or not at all: the text goes to a temporary file beside the target and is renamed over
 * it, so a crash or a full disk never leaves half a file, and a concurrent reader sees the old file or the new.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';

export function writeWholeFile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
