/**
 * The command line's side of another interface version: `spec-diff OLD NEW` and `mock --spec FILE`, run as
 * a user runs them (bin/session-agent-sim.js, from dist/).
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OWN_SPEC, REAL_SPEC, writeNewerInterface } from '../support/newer-interface.js';

const BIN = fileURLToPath(new URL('../../bin/session-agent-sim.js', import.meta.url));
const newer = writeNewerInterface();

function cli(...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 30_000 });
}

describe('session-agent-sim spec-diff', () => {
  it('lists what was added, removed, moved and changed, and exits 1', () => {
    const run = cli('spec-diff', OWN_SPEC, newer.file);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      'added    v2.session.share  GET /api/session/{sessionID}/share',
      'removed  v2.skill.list  GET /api/skill',
      'moved    v2.integration.attempt.status  GET /api/integration/attempt/{attemptID} → GET /api/integration/{integrationID}/attempt/{attemptID}',
      '    request path parameter integrationID added (required) (narrowed) at /paths/~1api~1integration~1{integrationID}~1attempt~1{attemptID}/get/parameters/0',
      'changed  v2.session.list  GET /api/session: 1 change',
      '    request query parameter tag added (widened) at /paths/~1api~1session/get/parameters/8',
      'changed  v2.pty.get  GET /api/pty/{ptyID}: 1 change',
      '    response 200: property revision added (required) (narrowed) at /paths/~1api~1pty~1{ptyID}/get/responses/200/content/application~1json/schema/properties/data',
      '91 → 91 operations: 1 added, 1 removed, 1 moved, 2 changed',
    ]);
  });

  it('exits 0 for identical documents, and gives JSON with --json', () => {
    const same = cli('spec-diff', OWN_SPEC, OWN_SPEC);
    expect(same.status).toBe(0);
    expect(same.stdout).toBe('identical: 91 operations, same methods, paths and shapes\n');

    const json = cli('spec-diff', OWN_SPEC, newer.file, '--json');
    expect(json.status).toBe(1);
    const report = JSON.parse(json.stdout) as {
      summary: string;
      moved: Array<{ operationId: string; from: { path: string }; changes: unknown[] }>;
      changed: Array<{ operationId: string; changes: Array<{ pointer: string; effect: string }> }>;
    };
    expect(report.summary).toBe('91 → 91 operations: 1 added, 1 removed, 1 moved, 2 changed');
    expect(report.moved[0]?.from.path).toBe('/api/integration/attempt/{attemptID}');
    expect(report.changed.find((c) => c.operationId === 'v2.pty.get')?.changes[0]?.effect).toBe('narrowed');
  });

  it("compares the simulator's spec with the real server's /doc", () => {
    const run = cli('spec-diff', OWN_SPEC, REAL_SPEC);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('removed  v2.session.synthetic  POST /api/session/{sessionID}/synthetic');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^91 → 83 operations: 0 added, 8 removed, 0 moved, \d+ changed$/,
    );
  });

  it('refuses a missing file or a document without paths with exit code 2', () => {
    const missing = cli('spec-diff', OWN_SPEC, 'nope.json');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('No such file: nope.json');
    const one = cli('spec-diff', OWN_SPEC);
    expect(one.status).toBe(2);
    const notOpenApi = cli('spec-diff', OWN_SPEC, fileURLToPath(new URL('../../package.json', import.meta.url)));
    expect(notOpenApi.status).toBe(2);
    expect(notOpenApi.stderr).toContain('is not an OpenAPI document: it has no paths.');
  });
});

describe('session-agent-sim mock --spec FILE', () => {
  it('says what changed at start and answers the moved route', async () => {
    const child = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--spec', newer.file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up lines in 30 s: ${out}`)), 30_000);
        child.stdout.on('data', (chunk: string) => {
          out += chunk;
          const match = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match?.[1] && out.includes('  removed')) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      const lines = out.split('\n');
      expect(lines[1]).toBe(
        `spec ${newer.file}: 91 → 91 operations: 1 added, 1 removed, 1 moved, 2 changed; the world answers 89 operations, 1 no longer fit and are the fallback's (GET /__sim/spec lists them)`,
      );
      expect(lines).toContain(
        '  moved    v2.integration.attempt.status GET /api/integration/attempt/{attemptID} → GET /api/integration/{integrationID}/attempt/{attemptID}: keeps its simulation',
      );
      expect(lines.find((l) => l.startsWith('  changed  v2.pty.get'))).toMatch(
        /: the fallback answers \(response 200: /,
      );
      const attempt = await fetch(`${url}/api/integration/openai/attempt/con_unknown`);
      expect(attempt.headers.get('x-sim-operation')).toBe('v2.integration.attempt.status');
      expect(attempt.headers.get('x-sim-layer')).toBe('scenario');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }, 60_000);

  it('refuses a file that is not there before it starts', () => {
    const run = cli('mock', '--port', '0', '--spec', 'nope.json');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--spec nope.json cannot be served: no such file');
  });
});
