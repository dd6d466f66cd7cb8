// @vitest-environment jsdom
/**
 * The official client's every body through msw under jsdom: see `test/support/client-bodies.ts`.
 */
import { simulatorHandlers } from '../../src/msw/index.js';
import { clientBodiesSuite } from '../support/client-bodies.js';

clientBodiesSuite('jsdom', simulatorHandlers);
