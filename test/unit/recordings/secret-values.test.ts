import { describe, expect, it } from 'vitest';
import { DEFAULT_REDACTION } from '../../../src/recordings/redact.js';
import { createSecretValues } from '../../../src/recordings/secret-values.js';

const request = (search: string) => ({
  headers: {},
  search,
  searchParams: new URLSearchParams(search),
  rawBody: Buffer.alloc(0),
});

describe('the secret values a request carries', () => {
  it('notes a query value under a name the rules give, written plainly or escaped', () => {
    for (const search of [
      '?limit=2&auth_token=tok-secret-1',
      '?auth%5Ftoken=tok-secret-1',
      '?a=1&%61uth_token=tok-secret-1',
    ]) {
      const secrets = createSecretValues(DEFAULT_REDACTION);
      secrets.note(request(search));
      expect(secrets.scrub('sent tok-secret-1'), search).toBe('sent [REDACTED]');
    }
  });

  it('notes nothing for a query without those names', () => {
    const secrets = createSecretValues(DEFAULT_REDACTION);
    secrets.note(request('?limit=2&token=tok-secret-1'));
    secrets.note(request(''));
    expect(secrets.size).toBe(0);
  });
});
