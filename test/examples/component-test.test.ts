/**
 * The component-test example (examples/component-test): a plain-DOM panel tested under happy-dom, the
 * simulator answering through msw. Installed from the packed package into a project of its own and run as
 * its user would run it, in a vitest of its own.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { nodeBefore, skippedWhen } from '../support/environment.js';
import {
  cleanEnv,
  installExample,
  INSTALL_TIMEOUT,
  PACK_TIMEOUT,
  packedPackage,
  run,
} from '../support/packed-package.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/component-test/', import.meta.url));

let project = '';

beforeAll(async () => {
  project = await installExample(EXAMPLE, await packedPackage());
}, PACK_TIMEOUT + INSTALL_TIMEOUT);

// Removing an installed project's node_modules takes over the default ten seconds on a busy machine.
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
}, 60_000);

// This run's vitest variables would make the example's vitest think it is one of this run's workers.
const env = {
  ...Object.fromEntries(Object.entries(cleanEnv).filter(([name]) => !name.startsWith('VITEST'))),
  NO_COLOR: '1',
  FORCE_COLOR: '0',
};

it('type-checks against the installed declarations', async () => {
  const tsc = await run('npx', ['--no', '--', 'tsc', '--noEmit'], { cwd: project, timeout: 60_000, env });
  expect(tsc.code, `${tsc.stdout}\n${tsc.stderr}`).toBe(0);
}, 70_000);

/** The example's own vitest, as its user runs it: all three tests pass. */
async function expectItsTestsPass(): Promise<void> {
  const vitest = await run('npx', ['--no', '--', 'vitest', 'run', '--reporter=dot'], {
    cwd: project,
    timeout: 90_000,
    env,
  });
  expect(vitest.code, `${vitest.stdout}\n${vitest.stderr}`).toBe(0);
  // eslint-disable-next-line no-control-regex -- colour codes, should a terminal setting bring them back
  expect(vitest.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Tests\s+3 passed \(3\)/);
}

it('passes its tests: a form appears through the stream, one is answered, a late answer is refused', async () => {
  await expectItsTestsPass();
}, 100_000);

// Where msw 3 can run, the same tests pass with it in place of msw 2.
it(
  'passes its tests with msw 3 as well',
  { ...skippedWhen(nodeBefore(22, 12, 'msw 3')), timeout: INSTALL_TIMEOUT + 100_000 },
  async () => {
    const install = await run('npm', ['install', '-D', 'msw@^3.0.5', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: project,
      timeout: INSTALL_TIMEOUT,
    });
    expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);
    await expectItsTestsPass();
  },
);
