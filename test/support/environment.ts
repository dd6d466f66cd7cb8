/**
 * What this machine offers the tests that need more than Node: the real server's binary and a Chromium.
 * The tests skip on these, and the environment reporter says which ran; both read them here.
 */
export { REAL_SERVER_BINARY, realServerAvailable } from './real-server.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
