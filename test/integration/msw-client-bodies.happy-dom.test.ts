// @vitest-environment happy-dom
/**
 * The official client's every body through msw under happy-dom: see `test/support/client-bodies.ts`.
 */
import { simulatorHandlers } from '../../src/msw/index.js';
import { clientBodiesSuite } from '../support/client-bodies.js';

clientBodiesSuite('happy-dom', simulatorHandlers);
