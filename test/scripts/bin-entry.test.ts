// bin/session-agent-sim.js picks what to run by the files beside it: here a copy of it runs in a made-up package
// whose two compiled entries only say which one ran.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/session-agent-sim.js', import.meta.url));
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A package with bin/ and dist/; `bundleAge` seconds older than dist/cli.js is the bundle. */
function layout(bundleAge: number, withSources: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'sim-bin-'));
  made.push(root);
  mkdirSync(join(root, 'bin'));
  mkdirSync(join(root, 'dist'));
  copyFileSync(BIN, join(root, 'bin', 'session-agent-sim.js'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(root, 'dist', 'cli.js'), "console.log('dist/cli.js');\n");
  writeFileSync(join(root, 'dist', 'cli.bundle.js'), "console.log('dist/cli.bundle.js');\n");
  const now = Date.now() / 1000;
  utimesSync(join(root, 'dist', 'cli.js'), now, now);
  utimesSync(join(root, 'dist', 'cli.bundle.js'), now - bundleAge, now - bundleAge);
  if (withSources) {
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'cli.ts'), '');
    utimesSync(join(root, 'src', 'cli.ts'), now - 60, now - 60);
  }
  return root;
}

function ran(root: string): string {
  return execFileSync(process.execPath, [join(root, 'bin', 'session-agent-sim.js')], { encoding: 'utf8' }).trim();
}

describe('bin/session-agent-sim.js', () => {
  it('runs the bundle of an installed package, whatever order npm wrote its files in', () => {
    expect(ran(layout(0.005, false))).toBe('dist/cli.bundle.js');
  });

  it('runs the bundle of a checkout while it is as new as dist/cli.js', () => {
    expect(ran(layout(0, true))).toBe('dist/cli.bundle.js');
  });

  it('runs dist/cli.js in a checkout whose bundle a later tsc left behind', () => {
    expect(ran(layout(5, true))).toBe('dist/cli.js');
  });
});
