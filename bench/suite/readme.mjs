// The README's performance section: the targets table and the measures' values of bench/results.md, copied
// between the README's bench markers by every full run, so the front door shows the latest run and nothing
// else. `node bench/suite/readme.mjs` copies them from the results.md there is; test/docs checks they agree.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const START = '<!-- bench:start -->';
export const END = '<!-- bench:end -->';

/** The lines of the table under `heading` (`## Targets`), header row included. */
function tableUnder(text, heading) {
  const lines = text.split('\n');
  const at = lines.indexOf(heading);
  if (at < 0) return [];
  const first = lines.findIndex((line, i) => i > at && line.startsWith('|'));
  if (first < 0) return [];
  let last = first;
  while (lines[last + 1]?.startsWith('|')) last++;
  return lines.slice(first, last + 1);
}

/** The section the README shows, made from the text of bench/results.md. */
export function readmeSection(results) {
  const machine = results.split('\n').find((line) => line.startsWith('**Machine:**')) ?? '';
  const command = results.split('\n').find((line) => line.startsWith('**Command:**')) ?? '';
  const targets = tableUnder(results, '## Targets');
  // The measures without their detail column: the README gives the value against its target, results.md why.
  const measures = tableUnder(results, '## Measures').map((line) => {
    if (line.startsWith('|---')) return '|---|---|---|---|';
    const cells = line.split(' | ');
    return cells.length > 4 ? `${cells.slice(0, 4).join(' | ')} |` : line;
  });
  return [
    START,
    `${machine.replace('**Machine:**', 'Machine:')}. ${command.replace('**Command:**', 'Command:')}`,
    '',
    ...targets,
    ...(measures.length ? ['', ...measures] : []),
    END,
  ].join('\n');
}

/** The README with its bench section replaced; the README unchanged when it has no markers. */
export function withSection(readme, results) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) return readme;
  return readme.slice(0, start) + readmeSection(results) + readme.slice(end + END.length);
}

export function updateReadme(readmePath, resultsPath) {
  const readme = readFileSync(readmePath, 'utf8');
  const next = withSection(readme, readFileSync(resultsPath, 'utf8'));
  if (next === readme) return false;
  writeFileSync(`${readmePath}.tmp`, next);
  renameSync(`${readmePath}.tmp`, readmePath);
  return true;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const changed = updateReadme(`${root}README.md`, `${root}bench/results.md`);
  process.stdout.write(changed ? 'README.md: performance section updated\n' : 'README.md: already up to date\n');
}
