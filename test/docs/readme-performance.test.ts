/**
 * The README's performance section is bench/results.md's targets and measures, copied by `npm run bench`
 * (bench/suite/readme.mjs): it must show the run that results.md reports, not an older one.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
// @ts-expect-error: a script of the bench, in plain JavaScript
import { END, readmeSection, START, withSection } from '../../bench/suite/readme.mjs';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(`${REPO}README.md`, 'utf8');
const RESULTS = readFileSync(`${REPO}bench/results.md`, 'utf8');

it('shows the targets and measures of bench/results.md', () => {
  const section = README.slice(README.indexOf(START), README.indexOf(END) + END.length);
  expect(section).toBe(readmeSection(RESULTS));
  expect(section).toContain('| criterion | measured | target | met |');
  expect(section).toContain('| measure | value | target | met |');
});

it('replaces only what is between the markers', () => {
  const results = RESULTS.replace(/^\*\*Machine:\*\*.*$/m, '**Machine:** another machine');
  const updated = withSection(`before\n${START}\nold\n${END}\nafter\n`, results);
  expect(updated.startsWith(`before\n${START}\nMachine: another machine.`)).toBe(true);
  expect(updated.endsWith(`${END}\nafter\n`)).toBe(true);
  expect(withSection('no markers here\n', results)).toBe('no markers here\n');
});
