/**
 * The README's frontend example, on the simulator and on the real runtime: it boots, prompts, shows "working…"
 * and then "idle" by the real server's signals alone, and reads the messages back, the same on both.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { startSimulator } from '../../src/index.js';
import { startRealRuntime } from '../../src/real-runtime/real-runtime.js';
import { noRealRuntime, skippedWhen } from '../support/environment.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/frontend-boot.mjs', import.meta.url));
const run = promisify(execFile);

/** What the example prints, each line by what it says and the shape of what follows. */
async function boot(url: string): Promise<Record<string, string>> {
  const { stdout } = await run(process.execPath, [EXAMPLE, url], { timeout: 60_000 });
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
  );
}

it(
  'boots, shows the turn working and then idle, and reads it back, on mock as on real',
  { ...skippedWhen(noRealRuntime()), timeout: 180_000 },
  async () => {
    // The two boots share nothing: the mock's runs while the real runtime starts.
    const onMock = async () => {
      const sim = await startSimulator({ scenario: 'default', port: 0 });
      try {
        return await boot(sim.url);
      } finally {
        await sim.close();
      }
    };
    const onReal = async () => {
      const runtime = await startRealRuntime({ scenario: 'default', port: 0, pace: 0.1 });
      try {
        return await boot(runtime.url);
      } finally {
        await runtime.stop();
      }
    };
    const [mock, real] = await Promise.all([onMock(), onReal()]);
    for (const printed of [mock, real]) {
      expect(Object.keys(printed)).toEqual([
        'healthy',
        'agents',
        'latest sessions',
        'busy',
        'the turn',
        'shown',
        'messages',
      ]);
      expect(printed.healthy).toMatch(/^true, in \//);
      expect(printed['the turn']).toMatch(/^session\.next\.step\.started, .*session\.next\.step\.ended$/);
      expect(printed.messages).toMatch(/^user, assistant/);
    }
    expect(real.shown).toBe('working… → idle');
    expect(mock.shown).toBe(real.shown);
  },
);
