/**
 * `npm run spec:import`: the spec is the union of the interface document's operations and the real server's,
 * each marked with where it comes from; an import replaces what the last one added, and `--check` holds the
 * spec to the kept document without a server.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/spec-import.mjs', import.meta.url));
const SPEC = fileURLToPath(new URL('../../spec/session-agent.openapi.yaml', import.meta.url));

const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });

const ok = { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } };
const bad = {
  description: 'bad',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/InvalidRequestError' } } },
};

/** A real server's document in small: one operation of the interface's, one of its own, one v1 route. */
function serverDoc(withThing: boolean) {
  return {
    openapi: '3.1.0',
    info: { title: 'opencode', version: '1.0.0' },
    tags: [{ name: 'things', description: 'Things.' }],
    paths: {
      '/api/plugin': { get: { operationId: 'v2.plugin.list', responses: { 200: ok, 400: bad } } },
      ...(withThing
        ? {
            '/api/thing': {
              get: { operationId: 'v2.thing.list', tags: ['things'], responses: { 200: ok, 400: bad } },
            },
          }
        : {}),
      '/session': { get: { operationId: 'session.list', responses: { 200: ok } } },
    },
    components: {
      schemas: {
        Thing: { type: 'object', properties: { id: { type: 'string' } } },
        InvalidRequestError: {
          type: 'object',
          properties: { _tag: { type: 'string', enum: ['InvalidRequestError'] } },
        },
      },
    },
  };
}

function workspace(withThing: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'spec-import-'));
  const spec = join(dir, 'spec.yaml');
  copyFileSync(SPEC, spec);
  const doc = join(dir, 'doc.json');
  writeFileSync(doc, JSON.stringify(serverDoc(withThing)));
  mkdirSync(join(dir, 'kept'));
  return { dir, spec, doc, args: ['--spec', spec, '--kept', join(dir, 'kept'), '--version', '9.9.9'] };
}

describe('npm run spec:import', () => {
  it('holds the project spec to the kept real-server document, with no server', () => {
    const result = run('--check');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/the spec holds the real server's \d+ v2 paths \(opencode 1\.18\.33/);
  });

  it("adds the real server's operations marked as its, keeps the interface's, and leaves v1 routes out", () => {
    const { spec, doc, args } = workspace(true);
    const imported = run('--doc', doc, ...args);
    expect(imported.status, imported.stderr).toBe(0);
    const result = parse(readFileSync(spec, 'utf8'));
    expect(result.paths['/api/thing'].get['x-source']).toBe('real-server opencode 9.9.9 (GET /doc)');
    expect(result.paths['/api/plugin'].get['x-source']).toMatch(/^interface-document; the real server .* serves it/);
    expect(result.paths['/api/shell/{id}'].get['x-source']).toMatch(/^interface-document; .* does not serve it/);
    expect(result.paths['/session']).toBeUndefined();
    // Its own schema comes along; the one the interface document already shows keeps the interface's shape.
    expect(result.components.schemas.Thing['x-source']).toBe('real-server opencode 9.9.9 (GET /doc)');
    expect(result.components.schemas.InvalidRequestError.required).toContain('message');
    expect(result.tags.map((t: { name: string }) => t.name)).toContain('things');
  });

  // Four runs of the script, each a process of its own: on a loaded two-core machine they outlast the default.
  it('replaces what the last import added, and gives the same file when nothing changed', () => {
    const { dir, spec, args } = workspace(true);
    expect(run('--doc', join(dir, 'doc.json'), ...args).status).toBe(0);
    const once = readFileSync(spec, 'utf8');
    expect(run('--doc', join(dir, 'doc.json'), ...args).status).toBe(0);
    expect(readFileSync(spec, 'utf8')).toBe(once);
    expect(run('--check', ...args).status).toBe(0);
    // A newer server without the operation: it goes, with its schema and tag; the interface's stay.
    writeFileSync(join(dir, 'doc.json'), JSON.stringify(serverDoc(false)));
    expect(run('--doc', join(dir, 'doc.json'), ...args).status).toBe(0);
    const result = parse(readFileSync(spec, 'utf8'));
    expect(result.paths['/api/thing']).toBeUndefined();
    expect(result.components.schemas.Thing).toBeUndefined();
    expect(result.paths['/api/plugin'].get.operationId).toBe('v2.plugin.list');
    expect(result.tags.map((t: { name: string }) => t.name)).not.toContain('things');
  }, 60_000);
});
