// Each worker talks to its own partition: same simulator, its own world, clock, rules and coverage.
import { connectSimulator } from 'session-agent-sim';
import { inject } from 'vitest';

export const sim = connectSimulator(inject('simUrl')).partition(`worker-${process.env.VITEST_POOL_ID ?? '1'}`);
