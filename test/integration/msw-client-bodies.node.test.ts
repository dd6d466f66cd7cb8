// @vitest-environment node
/**
 * The official client's every body through msw under node: see `test/support/client-bodies.ts`.
 */
import { simulatorHandlers } from '../../src/msw/index.js';
import { clientBodiesSuite } from '../support/client-bodies.js';

clientBodiesSuite('node', simulatorHandlers);
