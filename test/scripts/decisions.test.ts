/**
 * `npm run decisions` lists the spec's decisions by operationId: every operation under its id, every
 * top-level decision somewhere, and no decision left naming an operation by the interface's number.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const SPEC_FILE = new URL('../../spec/session-agent.openapi.yaml', import.meta.url);
const specText = readFileSync(SPEC_FILE, 'utf8');
const spec = parse(specText) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
  'x-decisions': string[];
};
const run = spawnSync(process.execPath, [new URL('../../scripts/decisions.mjs', import.meta.url).pathname], {
  encoding: 'utf8',
});
const output = run.stdout;

/** The decisions printed under an operation's heading. */
function under(operationId: string): string[] {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`${operationId}  `));
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('  - '));
  return lines.slice(start + 1, end);
}

describe('npm run decisions', () => {
  it('runs, and heads a section with every operationId of the spec', () => {
    expect(run.status, run.stderr).toBe(0);
    const ids = Object.values(spec.paths).flatMap((item) =>
      Object.values(item)
        .map((op) => op.operationId)
        .filter((id): id is string => id !== undefined),
    );
    expect(ids).toHaveLength(91);
    for (const id of ids) {
      expect(output, id).toMatch(new RegExp(`^${id.replace(/\./g, '\\.')} {2}(GET|POST|PUT|PATCH|DELETE) /`, 'm'));
      expect(under(id)[0], id).toMatch(/^ {2}- source: (interface-document|real-server opencode [\d.]+ \(GET \/doc\))/);
    }
    expect(output).toMatch(/^91 operations: 24 from interface-document, 67 from real-server opencode 1\.18\.33$/m);
  });

  it('prints every top-level decision at least once, an operation own under its id', () => {
    for (const decision of spec['x-decisions'])
      expect(
        output.includes(decision) || output.includes(decision.replace(/^[A-Z]+ \S+: /, '')),
        decision.slice(0, 60),
      ).toBe(true);
    expect(under('v2.session.messages').join('\n')).toContain('cursor is opaque');
    expect(under('v2.shell.timeout').join('\n')).toContain('timeout unit is milliseconds');
    expect(output).toMatch(/^Everywhere$/m);
  });

  it('names operations by id: no decision in the spec or the listing numbers them', () => {
    const numbered = /\b(operations? \d|endpoint \d|\(operation \d)/;
    expect(specText).not.toMatch(numbered);
    expect(output).not.toMatch(numbered);
  });
});
