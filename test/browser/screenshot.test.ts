/**
 * The docs' command that photographs the inspector (scripts/screenshot-inspector.mjs), run as a reader runs it:
 * as root (CI's user), on a simulator of its own and on one already running. The inspector is a live page whose
 * stream never ends, so the script must end on what the page shows, or on its wall-clock time-out.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/index.js';
import { CHROMIUM, noChromium, skippedWhen } from '../support/environment.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/screenshot-inspector.mjs', import.meta.url));
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const scratch = mkdtempSync(join(tmpdir(), 'sim-shot-'));
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, [SCRIPT, ...args], { env: { ...process.env, CHROMIUM_PATH: CHROMIUM } });

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function expectPicture(file: string): void {
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 8).equals(PNG)).toBe(true);
  // A blank page compresses to a few KiB; the journal and state panels make it far larger.
  expect(bytes.length).toBeGreaterThan(30_000);
}

describe('the inspector screenshot command', skippedWhen(noChromium()), () => {
  it('photographs its own simulator after the traffic it sends', async () => {
    const out = join(scratch, 'own.png');
    const { stdout } = await run(['--out', out, '--timeout', '90']);
    expect(stdout).toContain(`wrote ${out}`);
    expectPicture(out);
  }, 120_000);

  it('photographs a running simulator given by --url, and ends', async () => {
    const sim = await startSimulator({ scenario: 'default' });
    try {
      const out = join(scratch, 'running.png');
      const { stdout } = await run(['--url', sim.url, '--out', out, '--timeout', '60']);
      expect(stdout).toContain(`wrote ${out}`);
      expectPicture(out);
    } finally {
      await sim.close();
    }
  }, 90_000);

  it('says what is wrong when nothing listens there', async () => {
    const failure = await run(['--url', 'http://127.0.0.1:9', '--out', join(scratch, 'none.png')]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toMatch(
      /cannot open http:\/\/127\.0\.0\.1:9: .*is the simulator running/,
    );
  }, 60_000);
});
