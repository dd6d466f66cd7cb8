/**
 * An alias bomb (billion laughs) is refused the same way wherever YAML a user gives is read: the CLI's
 * `mock --scenario` and `validate`, `PUT /__sim/scenario`, `--watch`, a recording, a spec and `spec-diff`.
 * Each says what was refused and why, at the alias's place; none answers a 5xx or prints a stack.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/hosts/app.js';
import type { SimulatorHandle } from '../../src/handle/simulator-handle.js';
import { loadSpec } from '../../src/openapi/openapi.js';
import { parseRecording } from '../../src/recordings/format.js';
import { startSimulator } from '../../src/hosts/start-simulator.js';
import { YamlTextError } from '../../src/text/read-yaml.js';
import { billionLaughs, BOMB_REFUSAL } from '../support/alias-bomb.js';

const BIN = fileURLToPath(new URL('../../bin/session-agent-sim.js', import.meta.url));
/** Where billionLaughs() puts its largest alias, `*h` on the last line. */
const PLACE = '10:8';

function bombFile(name = 'bomb'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'sim-bomb-')), `${name}.yaml`);
  writeFileSync(file, billionLaughs(name));
  return file;
}

function cli(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 30_000 });
}

let sim: SimulatorHandle | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('an alias bomb', () => {
  it('is a CLI error from mock --scenario and validate: the problem at its place, no stack, exit non-zero', () => {
    const file = bombFile();
    const dir = join(file, '..');
    const mock = cli(dir, 'mock', '--scenario', 'bomb.yaml', '--port', '0');
    expect(mock.status).toBe(2);
    expect(mock.stderr).toContain(`bomb.yaml:${PLACE}: ${BOMB_REFUSAL}\n`);
    expect(mock.stderr).not.toMatch(/ReferenceError|\n\s+at /);
    const validate = cli(dir, 'validate', 'bomb.yaml');
    expect(validate.status).toBe(1);
    expect(validate.stdout).toBe('FAIL  bomb.yaml\n');
    expect(validate.stderr).toContain(`bomb.yaml:${PLACE}: ${BOMB_REFUSAL}`);
  }, 60_000);

  it('answers PUT /__sim/scenario with 400 SimScenarioError', async () => {
    const app = await createApp({ scenario: 'default', log: () => {} });
    const res = await request(app).put('/__sim/scenario').send({ yaml: billionLaughs(), file: 'bomb.yaml' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      _tag: 'SimScenarioError',
      message: `The scenario does not load: bomb.yaml:${PLACE}: ${BOMB_REFUSAL}`,
      problems: [`bomb.yaml:${PLACE}: ${BOMB_REFUSAL}`],
      hint: expect.any(String),
    });
    // The world it served is still served.
    expect((await request(app).get('/__sim/scenarios')).body.current).toBe('default');
  });

  it('is a failed reload under --watch, the last good world serving on', async () => {
    const file = bombFile('watched');
    writeFileSync(file, 'name: watched\n');
    sim = await startSimulator({ scenario: file, watch: true, log: () => {} });
    writeFileSync(file, billionLaughs('watched'));
    const deadline = Date.now() + 10_000;
    let failed: string | undefined;
    while (!failed && Date.now() < deadline) {
      failed = (await sim.journal()).find((e) => e.action === 'reload.failed')?.detail;
      if (!failed) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(failed).toBe(`${file}:${PLACE}: ${BOMB_REFUSAL}`);
    expect((await fetch(`${sim.url}/api/model/default`)).status).toBe(200);
  }, 30_000);

  it('is refused in a recording, a spec and spec-diff', async () => {
    const header = '# session-agent-sim recording\nformat: session-agent-sim/recording@1\nspecHash: x\n';
    const recording = `${header}---\n${billionLaughs()}---\n{"seq": 2}\n`;
    expect(() => parseRecording(recording)).toThrow(`recording document 2: ${BOMB_REFUSAL}`);

    const spec = bombFile('spec');
    await expect(loadSpec(spec)).rejects.toThrow(YamlTextError);
    await expect(loadSpec(spec)).rejects.toThrow(BOMB_REFUSAL);

    const diff = cli(join(spec, '..'), 'spec-diff', 'spec.yaml', 'spec.yaml');
    expect(diff.status).toBe(2);
    expect(diff.stderr).toContain(`spec.yaml cannot be read: ${BOMB_REFUSAL}`);
    expect(readFileSync(spec, 'utf8')).toBe(billionLaughs('spec'));
  }, 60_000);
});
