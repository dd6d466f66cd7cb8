import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/session-agent-sim.js', import.meta.url));

describe('session-agent-sim CLI', () => {
  it('serves on loopback, answers in the API dialect and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--seed', 'cli-test'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up line in 15 s: ${out}`)), 15_000);
        child.stdout.on('data', (chunk: string) => {
          out += chunk;
          const match = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      const res = await fetch(`${url}/api/model/default`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await res.json()).location.directory).toBe('/home/dev/acme-web');
      expect(out).toContain('seed "cli-test"');
    } finally {
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    }
  });

  it('refuses a bad flag value with a sentence and exit code 2', () => {
    const result = spawnSync(process.execPath, [BIN, 'mock', '--port', 'abc'], { encoding: 'utf8', timeout: 15_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('port must be an integer');
  });

  it('prints usage with --help', () => {
    const result = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8', timeout: 15_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('--dynamic');
  });
});

describe('session-agent-sim validate', () => {
  it('passes the shipped scenarios', () => {
    const result = spawnSync(process.execPath, [BIN, 'validate'], { encoding: 'utf8', timeout: 20_000 });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('forms-settling.yaml');
  });

  it('refuses a broken file naming file, line and column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-validate-'));
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'name: broken\nsessions:\n  - id: ses_1\n    bussy: []\n');
    const result = spawnSync(process.execPath, [BIN, 'validate', file], { encoding: 'utf8', timeout: 20_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${file}:4:5: unknown field "bussy"`);
  });

  it('refuses to start on a broken scenario, naming file, line and column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-start-'));
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'name: broken\nsessions:\n  - id: ses_1\n    generate: { count: many }\n');
    const result = spawnSync(process.execPath, [BIN, 'mock', '--scenario', file, '--port', '0'], { encoding: 'utf8', timeout: 20_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${file}:4:24: count must be integer`);
  });
});
