/**
 * A newer version of the interface, made from the simulator's own spec by scripts/newer-interface.mjs (one
 * operation moved, one added, one removed, one changed within what the world fits, one beyond it), written
 * once per test file into a scratch directory.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/newer-interface.mjs', import.meta.url));
export const OWN_SPEC = fileURLToPath(new URL('../../spec/session-agent.openapi.yaml', import.meta.url));
export const REAL_SPEC = fileURLToPath(
  new URL('../../spec/real-server/opencode-1.18.33.openapi.json', import.meta.url),
);

export function writeNewerInterface(): { file: string; document: Record<string, unknown> } {
  const file = join(mkdtempSync(join(tmpdir(), 'newer-interface-')), 'newer-interface.openapi.json');
  const run = spawnSync(process.execPath, [SCRIPT, file], { encoding: 'utf8', timeout: 30_000 });
  if (run.status !== 0) throw new Error(`scripts/newer-interface.mjs failed: ${run.stderr}`);
  return { file, document: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> };
}
