import { appendFileSync, writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
const OUT = process.env.TIMING_OUT ?? '/tmp/timing.tsv';
let t0 = 0;
export default class TimingReporter implements Reporter {
  onInit() { t0 = Date.now(); writeFileSync(OUT, ''); }
  onTestModuleEnd(m: TestModule) {
    const d = m.diagnostic();
    const end = (Date.now() - t0) / 1000;
    const total = (d.duration + d.collectDuration + d.prepareDuration + d.setupDuration + d.environmentSetupDuration) / 1000;
    appendFileSync(OUT, `${end.toFixed(1)}\t${total.toFixed(1)}\t${(d.collectDuration/1000).toFixed(1)}\t${(d.duration/1000).toFixed(1)}\t${m.project.name}\t${m.moduleId.replace(/.*\/test\//, 'test/')}\n`);
  }
}
