/**
 * Plain JavaScript meets every mistake the types would have caught as a SimulatorError: an unknown option
 * says which it may have meant, a missing scenario where it was looked for, a misspelt field its place.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/hosts/app.js';
import { RECORDING_FORMAT } from '../../src/recordings/format.js';
import {
  SimConfigError,
  SimRuleError,
  SimScenarioError,
  SimScenarioNotFoundError,
  SimulatorError,
} from '../../src/index.js';
import { misspeltOnHandle, startInlineTypo, startMisspelt, startMissing } from '../fixtures/plain-js/misspelt.js';

async function rejection(promise: Promise<unknown>): Promise<SimulatorError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SimulatorError);
  return error as SimulatorError;
}

describe('plain JavaScript', () => {
  it('refuses startSimulator({ scenaro }) with a SimulatorError saying what was meant, and starts nothing', async () => {
    const error = await rejection(startMisspelt());
    expect(error).toBeInstanceOf(SimConfigError);
    expect(error.tag).toBe('SimConfigError');
    expect(error.message).toContain('unknown option "scenaro": did you mean "scenario"?');
    expect(error.problems).toEqual(['unknown option "scenaro": did you mean "scenario"?']);
    expect(error.hint).toMatch(/^startSimulator takes port, host, /);
  });

  it('refuses a scenario file that is not there, naming the folder it looked in', async () => {
    const error = await rejection(startMissing());
    expect(error).toBeInstanceOf(SimScenarioNotFoundError);
    expect(error.tag).toBe('SimScenarioNotFoundError');
    expect(error.message).toBe(`No scenario "nope.yaml" (looked in ${process.cwd()}).`);
    expect(error.hint).toMatch(/^Available: .*forms-settling.*; or give a path to a \.yaml file$/);
    expect(error.problems).toEqual([]);
  });

  it('refuses an inline scenario with a misspelt field as a SimScenarioError, its problem at its place', async () => {
    const error = await rejection(startInlineTypo());
    expect(error).toBeInstanceOf(SimScenarioError);
    expect(error.problems).toEqual(['inline scenario: sesions: unknown field "sesions". Did you mean "sessions"?']);
  });

  it('refuses createApp({ sead }) the same way', async () => {
    const error = await rejection(createApp({ sead: 'x' } as never));
    expect(error.message).toBe('createApp: unknown option "sead": did you mean "seed"?');
  });

  it("refuses a handle method's misspelt option or field, each as its own class", async () => {
    const [coverage, rule, scenario] = await misspeltOnHandle();
    expect(coverage).toMatchObject({ status: 'rejected' });
    const reasons = [coverage, rule, scenario].map((r) => (r?.status === 'rejected' ? (r.reason as unknown) : r));
    expect(reasons[0]).toBeInstanceOf(SimConfigError);
    expect((reasons[0] as SimulatorError).message).toBe('coverage: unknown option "al": did you mean "all"?');
    expect(reasons[1]).toBeInstanceOf(SimRuleError);
    expect((reasons[1] as SimulatorError).problems.join('\n')).toMatch(/"operaton"\. Did you mean "operation"\?/);
    expect(reasons[2]).toBeInstanceOf(SimScenarioError);
    expect((reasons[2] as SimulatorError).problems.join('\n')).toMatch(/sessions\[0\]\.idd: unknown field "idd"/);
  });

  it('refuses a recording it cannot read as a SimConfigError naming the file and the document', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sim-replay-')), 'broken.yaml');
    writeFileSync(file, `format: ${RECORDING_FORMAT}\n---\nrequest: { method: [\n---\nrequest: { method: GET }\n`);
    const error = await rejection(createApp({ replay: file, log: () => {} }));
    expect(error).toBeInstanceOf(SimConfigError);
    expect(error.message).toMatch(new RegExp(`^cannot replay ${file}: recording document 2: `));
    expect(error.hint).toMatch(/repair the document the message names/);
  });
});
