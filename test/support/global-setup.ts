/**
 * Builds dist/ once before the suite when it is older than src/. Tests that spawn the CLI go through
 * bin/session-agent-sim.js, which falls back to running the sources through tsx while dist/ is stale: about
 * four times the start-up of the bundle, paid by every one of the hundreds of processes the suite starts
 * (the shell blocks of the documents alone start one or more per command).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function modified(file: string): number {
  return statSync(join(ROOT, file), { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

export default function setup(): void {
  const compiled = modified('dist/cli.js');
  // bin/ prefers the bundle only while it is as new as dist/cli.js (scripts/build-cli.mjs writes it after tsc).
  if (compiled >= newestSource(join(ROOT, 'src')) && modified('dist/cli.bundle.js') >= compiled) return;
  const started = Date.now();
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status}): the CLI tests need dist/`);
  console.log(`dist/ was older than src/: built it in ${Date.now() - started} ms`);
}
