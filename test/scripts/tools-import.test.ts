/**
 * `npm run tools:import -- --check`: the kept tools file (spec/tools.json) is held, without a server, to the
 * shape an import writes: object schemas, no prose, the version installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/tools-import.mjs', import.meta.url));
const KEPT = fileURLToPath(new URL('../../spec/tools.json', import.meta.url));

const check = (file?: string) =>
  spawnSync(process.execPath, [SCRIPT, '--check', ...(file ? ['--file', file] : [])], { encoding: 'utf8' });

/** The kept file changed by `change`, written where a check can read it. */
function changed(change: (kept: { tools: Record<string, Record<string, unknown>> }) => void, raw = false): string {
  const kept = JSON.parse(readFileSync(KEPT, 'utf8'));
  change(kept);
  const file = join(mkdtempSync(join(tmpdir(), 'tools-import-')), 'tools.json');
  writeFileSync(file, raw ? JSON.stringify(kept) : `${JSON.stringify(kept, null, 2)}\n`);
  return file;
}

describe('tools:import --check', () => {
  it('passes the kept file, without a server', () => {
    const run = check();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^tools:import --check: spec\/tools\.json holds the \d+ tools of opencode /);
  });

  it('refuses a file with prose an import leaves out', () => {
    const run = check(
      changed((kept) => {
        (kept.tools.read as { properties: Record<string, object> }).properties.path = {
          type: 'string',
          description: 'The path to read',
        };
      }),
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /holds prose \(description, title, examples\) an import leaves out; run npm run tools:import/,
    );
  });

  it('keeps a property that is called description', () => {
    expect(readFileSync(KEPT, 'utf8')).toMatch(/"description": \{/);
  });

  it('refuses a tool that is not an object schema, and a file not written as an import writes it', () => {
    const broken = check(changed((kept) => void (kept.tools.read = { type: 'string' })));
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/tool read is not an object schema with properties/);
    const squeezed = check(changed(() => undefined, true));
    expect(squeezed.status).toBe(1);
    expect(squeezed.stderr).toMatch(/it is not written as an import writes it/);
  });

  it('says what to do when there is no file', () => {
    const run = check(join(tmpdir(), 'no-such-dir', 'tools.json'));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/there is no .*tools\.json; run npm run tools:import/);
  });
});
