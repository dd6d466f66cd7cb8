import { createHash as nodeHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHash } from '../../../src/browser/node-crypto.js';

describe('the browser build’s hashes agree with node:crypto', () => {
  // Lengths around the padding boundaries (55, 56, 63, 64 bytes) as well as long and empty inputs.
  const lengths = [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 65_537];
  for (const algorithm of ['sha1', 'sha256'] as const) {
    it(`${algorithm} on bytes of every awkward length`, () => {
      for (const length of lengths) {
        const bytes = randomBytes(length);
        expect(createHash(algorithm).update(bytes).digest('hex'), `${length} bytes`).toBe(
          nodeHash(algorithm).update(bytes).digest('hex'),
        );
      }
    });
    it(`${algorithm} on text in parts, as hex and base64`, () => {
      const ours = createHash(algorithm).update('seed:').update('ses_é✓', 'utf8');
      const node = nodeHash(algorithm).update('seed:').update('ses_é✓', 'utf8');
      expect(ours.digest('base64')).toBe(node.digest('base64'));
    });
  }
  it('refuses an algorithm it does not have', () => {
    expect(() => createHash('md5')).toThrow(/no md5 hash/);
  });
});
