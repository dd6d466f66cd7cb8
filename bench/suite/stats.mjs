// Medians over rounds, ratios taken within a round, and the targets judged from them.
import { formatMs, formatRatio } from './report.mjs';

export function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `runs` maps "workload/target" to one result per round (undefined for a round it missed). */
export function summarise(runs, key) {
  const list = (runs.get(key) ?? []).filter(Boolean);
  return {
    rounds: list.length,
    rps: median(list.map((r) => r.rps)),
    rpsMin: Math.min(...list.map((r) => r.rps)),
    rpsMax: Math.max(...list.map((r) => r.rps)),
    p50: median(list.map((r) => r.p50)),
    p99: median(list.map((r) => r.p99)),
    errors: list.reduce((sum, r) => sum + r.errors, 0),
    timeouts: list.reduce((sum, r) => sum + r.timeouts, 0),
    non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
    problems: list.reduce((sum, r) => sum + r.problems, 0),
  };
}

/**
 * Ratio of two targets' req/s, round by round, then the median: the rounds are interleaved so that drift
 * (thermal, another process) hits both sides of a ratio alike.
 */
export function ratio(runs, workload, target, ref) {
  const a = runs.get(`${workload}/${target}`) ?? [];
  const b = runs.get(`${workload}/${ref}`) ?? [];
  const perRound = a.map((run, i) => (run && b[i] && b[i].rps > 0 ? run.rps / b[i].rps : NaN));
  return median(perRound);
}

/**
 * Judges each criterion whose cells ran. A criterion is met only when the measured value passes and the
 * simulator's own cell had no errors and a good answer check (a peer's errors are shown, not held against it).
 */
export function judge(criteria, runs, { nameOf, cellOk, workloadName }) {
  const rows = [];
  for (const c of criteria) {
    const target = runs.get(`${c.workload}/${c.target}`)?.some(Boolean);
    const ref = c.kind === 'ratio' ? runs.get(`${c.workload}/${c.ref}`)?.some(Boolean) : true;
    if (!target || !ref) continue;
    const where = workloadName(c.workload);
    let value;
    let pass;
    let label;
    let measured;
    let wanted;
    if (c.kind === 'ratio') {
      value = ratio(runs, c.workload, c.target, c.ref);
      pass = value >= c.min;
      label = `${where}: ${nameOf(c.target)} ÷ ${nameOf(c.ref)} req/s`;
      measured = formatRatio(value);
      wanted = `≥ ${formatRatio(c.min)}`;
    } else {
      value = summarise(runs, `${c.workload}/${c.target}`).p99;
      pass = value < c.max;
      label = `${where}: ${nameOf(c.target)} p99`;
      measured = `${formatMs(value)} ms`;
      wanted = `< ${c.max} ms`;
    }
    const own = cellOk(c.workload, c.target);
    const peer = c.kind === 'ratio' ? cellOk(c.workload, c.ref) : { ok: true };
    const notes = [];
    if (c.context && runs.get(`${c.workload}/${c.context}`)?.some(Boolean))
      notes.push(`(${nameOf(c.context)}: ${formatMs(summarise(runs, `${c.workload}/${c.context}`).p99)} ms)`);
    if (!own.ok) notes.push(`(${nameOf(c.target)}: ${own.why})`);
    if (!peer.ok) notes.push(`(${nameOf(c.ref)}: ${peer.why})`);
    rows.push({
      workload: c.workload,
      label,
      value,
      measured,
      goal: wanted,
      met: Boolean(pass && own.ok),
      note: notes.join(' '),
    });
  }
  return rows;
}
