/**
 * The Node under test: vitest's workers, and the children tests start by name (`node` in the doc blocks and
 * scripts, npm) or by process.execPath, all run on one Node. CI runs the suite once per supported line with
 * that line's folder first on PATH and SIM_TEST_NODE set to the version it meant; the version the workers saw
 * goes into the report (the test's meta), where the environment reporter and CI's summary read it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const engines = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } }
).engines.node;

describe('the Node the tests run on', () => {
  it('is the one `node` on PATH names, and the one the run asked for', ({ task }) => {
    task.meta.node = process.version;
    const byName = execFileSync('node', ['-p', 'process.version'], { encoding: 'utf8' }).trim();
    expect(byName).toBe(process.version);
    const asked = process.env.SIM_TEST_NODE;
    if (asked) expect(process.version).toBe(asked);
  });

  it('is no older than the first release engines names for its line, the lines CI runs', () => {
    const lines = execFileSync(process.execPath, [new URL('../../.ci/node-lines.mjs', import.meta.url).pathname], {
      encoding: 'utf8',
    });
    const floors = engines.split('||').map((range) => range.trim().slice(1).split('.').map(Number));
    expect(lines.trim().split('\n').map(Number)).toEqual(floors.map(([line]) => line));
    // A line engines does not name is not claimed, and not refused here either: this run is not CI's.
    const [major = 0, minor = 0, patch = 0] = process.versions.node.split('.').map(Number);
    const [, floorMinor = 0, floorPatch = 0] = floors.find(([line]) => line === major) ?? [major];
    expect(minor * 1e6 + patch, `Node ${process.version} is older than ${engines} allows`).toBeGreaterThanOrEqual(
      floorMinor * 1e6 + floorPatch,
    );
  });
});
