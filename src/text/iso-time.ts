/**
 * `new Date(ms).toISOString()`, its date and time to the second made once a second: most requests of a busy
 * second share them.
 */
export function isoTime(ms: number): string {
  // Before 1970 a Date rounds toward zero, not down: its own text.
  if (!(ms >= 0)) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    const iso = new Date(second * 1000).toISOString();
    // Only within the years toISOString writes with four digits: outside them, its own text.
    if (iso.length !== 24) return new Date(ms).toISOString();
    lastSecond = second;
    secondText = iso.slice(0, 20);
  }
  const millis = Math.floor(ms) - second * 1000;
  return `${secondText}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

let lastSecond = Number.NaN;
let secondText = '';
