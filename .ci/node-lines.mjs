// The Node lines CI tests, read from package.json's engines: the engines field is the one list of supported
// lines, so a line is claimed exactly when CI runs the tests on it. Each alternative must be a caret range
// (^22.13.0: from that release on, within line 22); an open range such as >=24 would claim lines never tested,
// so it is refused rather than read. Prints the majors, one a line.
import { readFileSync } from 'node:fs';

export function nodeLines(engines) {
  if (typeof engines !== 'string' || !engines.trim()) throw new Error('package.json has no engines.node');
  return engines.split('||').map((part) => {
    const caret = /^\^(\d+)(?:\.\d+){0,2}$/.exec(part.trim());
    if (!caret)
      throw new Error(
        `engines.node "${engines}": "${part.trim()}" is not a caret range (^MAJOR.MINOR.PATCH); name each tested line`,
      );
    return Number(caret[1]);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`${nodeLines(manifest.engines?.node).join('\n')}\n`);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
