/** What the browser build injects for the globals Node code expects: `Buffer` and `process`. */
export { Buffer } from './buffer.js';
export { process } from './process.js';
export { setTimeout, setInterval, clearTimeout, clearInterval } from './timers.js';
