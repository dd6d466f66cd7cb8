// @vitest-environment happy-dom
/**
 * The official client's every body through the browser build (`dist/browser/msw.js`, what a bundler resolving
 * the `browser` condition gives) under happy-dom: see `test/support/client-bodies.ts`.
 */
import type { simulatorHandlers as Handlers } from '../../src/msw/index.js';
import { clientBodiesSuite } from '../support/client-bodies.js';

const BUILD = '../../dist/browser/msw.js';
const { simulatorHandlers } = (await import(/* @vite-ignore */ BUILD)) as { simulatorHandlers: typeof Handlers };

clientBodiesSuite('happy-dom', simulatorHandlers, 'happy-dom, with the browser build');
