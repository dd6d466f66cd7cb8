/** Waits until `condition` holds (polling), failing after `ms` with what it waited for. */
export async function until(condition: () => boolean, what = 'condition', ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
