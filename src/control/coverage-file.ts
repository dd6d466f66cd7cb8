/**
 * `--coverage FILE`: the coverage of every partition, merged, and each one's own, written when the simulator
 * closes. Written to a temporary file and renamed, so a crash mid-write never leaves half a report.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SpecIndex } from '../openapi/openapi.js';
import { coverageReport, mergeCounts, type CoverageReport } from './coverage.js';
import type { Partitions } from './partitions.js';
import { writeWholeFile } from '../files/whole-file.js';

export function writeCoverageFile(file: string, partitions: Partitions, spec: SpecIndex): CoverageReport {
  const all = partitions.list();
  const total = coverageReport(mergeCounts(all.map((p) => p.coverage.counts())), spec);
  const report = { ...total, partitions: Object.fromEntries(all.map((p) => [p.name, p.coverage.report().summary])) };
  mkdirSync(dirname(file), { recursive: true });
  writeWholeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  return total;
}
