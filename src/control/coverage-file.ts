/**
 * `--coverage FILE`: the coverage of every partition, merged, and each one's own, written when the simulator
 * closes. Written to a temporary file and renamed, so a crash mid-write never leaves half a report.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SpecIndex } from '../openapi/openapi.js';
import { coverageReport, mergeCounts, type CoverageReport } from './coverage.js';
import type { Partitions } from '../state/partitions.js';

export function writeCoverageFile(file: string, partitions: Partitions, spec: SpecIndex): CoverageReport {
  const all = partitions.list();
  const total = coverageReport(mergeCounts(all.map((p) => p.coverage.counts())), spec);
  const report = { ...total, partitions: Object.fromEntries(all.map((p) => [p.name, p.coverage.report().summary])) };
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(report, null, 2)}\n`);
  renameSync(temp, file);
  return total;
}
