import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, type SpecIndex } from '../../../src/openapi/openapi.js';
import { findOperation } from '../../../src/openapi/router.js';

let spec: SpecIndex;
beforeAll(async () => {
  spec = await loadSpec();
});

describe('findOperation', () => {
  it('finds an operation and decodes its path parameters', () => {
    const found = findOperation(spec, 'DELETE', '/api/session/ses_1/instructions/entries/docs%2FAGENTS.md');
    expect(found).toMatchObject({
      kind: 'found',
      operation: { operationId: 'v2.session.instructions.entry.remove' },
      params: { sessionID: 'ses_1', key: 'docs/AGENTS.md' },
    });
  });

  it('prefers a literal segment over a parameter', () => {
    expect(findOperation(spec, 'GET', '/api/integration/attempt/con_1')).toMatchObject({
      operation: { operationId: 'v2.integration.attempt.status' },
    });
  });

  it('tells a wrong method apart from an unknown path', () => {
    expect(findOperation(spec, 'GET', '/api/shell/sh_1/timeout')).toEqual({
      kind: 'method-not-allowed',
      allowed: [{ operationId: 'v2.shell.timeout', method: 'PATCH', path: '/api/shell/{id}/timeout' }],
    });
  });

  it('suggests the operation a typo was aiming at', () => {
    const result = findOperation(spec, 'GET', '/api/plugins');
    expect(result.kind).toBe('not-found');
    if (result.kind === 'not-found') expect(result.closest[0]?.operationId).toBe('v2.plugin.list');
  });

  it('does not match an empty parameter segment', () => {
    expect(findOperation(spec, 'GET', '/api/shell/').kind).toBe('not-found');
  });

  it('gives a trailing * segment the rest of the path, slashes and all, each segment decoded', () => {
    expect(findOperation(spec, 'GET', '/api/fs/read/src/pages/My%20Page.tsx')).toMatchObject({
      kind: 'found',
      operation: { operationId: 'v2.fs.read' },
      params: { '*': 'src/pages/My Page.tsx' },
    });
    expect(findOperation(spec, 'GET', '/api/fs/read/README.md')).toMatchObject({ params: { '*': 'README.md' } });
    // What the official client sends when not told the file: a file named `*`.
    expect(findOperation(spec, 'GET', '/api/fs/read/*')).toMatchObject({ params: { '*': '*' } });
    // One segment that decodes to a path outside the location stays the parameter; the kind refuses it.
    expect(findOperation(spec, 'GET', '/api/fs/read/..%2F..%2Fetc%2Fpasswd')).toMatchObject({
      params: { '*': '../../etc/passwd' },
    });
  });

  it('routes an empty rest to the operation, which says what is missing, and nothing shorter', () => {
    expect(findOperation(spec, 'GET', '/api/fs/read/')).toMatchObject({
      kind: 'found',
      operation: { operationId: 'v2.fs.read' },
      params: { '*': '' },
    });
    expect(findOperation(spec, 'GET', '/api/fs/read').kind).toBe('not-found');
    expect(findOperation(spec, 'POST', '/api/fs/read/a/b')).toMatchObject({
      kind: 'method-not-allowed',
      allowed: [{ operationId: 'v2.fs.read', method: 'GET', path: '/api/fs/read/*' }],
    });
  });

  it('gives each request its own parameters, rest included, even from the cache', () => {
    const first = findOperation(spec, 'GET', '/api/fs/read/a/b.ts');
    if (first.kind === 'found') first.params['*'] = 'changed';
    expect(findOperation(spec, 'GET', '/api/fs/read/a/b.ts')).toMatchObject({ params: { '*': 'a/b.ts' } });
  });
});
