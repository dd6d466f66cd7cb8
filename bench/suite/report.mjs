// Turns one run's numbers into bench/results.md. Pure formatting: every number arrives computed.
import { readFileSync, writeFileSync } from 'node:fs';

const dash = '–';

export function formatRps(value) {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : dash;
}

export function formatMs(value) {
  if (!Number.isFinite(value)) return dash;
  // autocannon keeps whole milliseconds; decimals would claim a precision it does not have.
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return value < 10 ? value.toFixed(2) : value < 1000 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
}

export function formatRatio(value) {
  return Number.isFinite(value) ? `${value < 0.1 ? value.toFixed(3) : value.toFixed(2)}×` : dash;
}

function formatMiB(value) {
  return Number.isFinite(value) ? `${Math.round(value)} MiB` : dash;
}

function cell(text) {
  return String(text ?? dash)
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
}

function table(header, rows) {
  return [
    `| ${header.map(cell).join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

function criteriaTable(criteria) {
  if (!criteria.length) return '_No criterion had its cells in this run._';
  return table(
    ['criterion', 'measured', 'target', 'met'],
    criteria.map((c) => [
      c.label,
      c.measured,
      c.goal,
      `${c.met === undefined ? '–' : c.met ? '✅' : '❌'}${c.note ? ` ${c.note}` : ''}`,
    ]),
  );
}

function workloadSection(w) {
  const header = [
    'target',
    'req/s (median)',
    'req/s min–max',
    'p50 ms',
    'p99 ms',
    'errors',
    ...w.ratioColumns.map((c) => `÷ ${c}`),
    'answer check',
  ];
  const rows = w.rows.map((r) => [
    `${r.flagged ? '⚠️ ' : ''}${r.name}`,
    formatRps(r.rps),
    r.rounds > 1 ? `${formatRps(r.rpsMin)}–${formatRps(r.rpsMax)}` : dash,
    formatMs(r.p50),
    formatMs(r.p99),
    r.errorsText,
    ...r.ratios.map(formatRatio),
    r.check,
  ]);
  return [
    `### ${w.name}`,
    '',
    w.note,
    '',
    table(header, rows),
    ...(w.remarks.length ? ['', ...w.remarks.map((line) => `- ${line}`)] : []),
  ].join('\n');
}

function processTable(processes) {
  return table(
    [
      'target',
      'PID',
      'startup (spawn → first 2xx)',
      'peak RSS (VmHWM, at the end)',
      'CPU while idle (3 s before round 1)',
      'status',
    ],
    processes.map((p) => [
      p.name,
      p.pid ?? dash,
      Number.isFinite(p.startupMs) ? `${Math.round(p.startupMs).toLocaleString('en-US')} ms` : dash,
      formatMiB(p.peakRssMiB),
      Number.isFinite(p.idleCpu) ? `${p.idleCpu.toFixed(1)} %` : dash,
      p.status,
    ]),
  );
}

function measuresSection(measures) {
  if (measures.skipped) return `_Not run (${measures.skipped})._`;
  if (measures.failure) return `**The measures did not run:** ${measures.failure}`;
  if (!measures.rows.length) return '_The measures module returned no rows._';
  return table(
    ['measure', 'value', 'target', 'met', 'detail'],
    measures.rows.map((m) => [
      m.name,
      `${Number.isFinite(m.value) ? (Number.isInteger(m.value) ? m.value.toLocaleString('en-US') : m.value.toFixed(2)) : dash} ${m.unit ?? ''}`.trim(),
      m.target,
      m.met === undefined ? dash : m.met ? '✅' : '❌',
      m.detail,
    ]),
  );
}

/** The hand-written reading of the profiles (bench/profile-notes.md), kept with every report. */
function profileNotes() {
  try {
    return [readFileSync(new URL('../profile-notes.md', import.meta.url), 'utf8').trim(), ''];
  } catch {
    return [];
  }
}

export function writeReport(file, run) {
  const text = [
    '# session-agent-sim benchmark: throughput and measures',
    '',
    `**Machine:** ${run.machine}`,
    '',
    `**Command:** \`${run.command}\` (${run.settings}); wall time ${run.wallTime}.`,
    '',
    ...(run.notes.length ? [...run.notes.map((n) => `> ${n}`), ''] : []),
    '## Targets',
    '',
    criteriaTable(run.criteria),
    '',
    '## Throughput',
    '',
    `Each target is its own process on 127.0.0.1; autocannon drives it from the runner with ${run.connections} connections for ${run.duration} s per cell, ` +
      `after 1 s of unmeasured warm-up in round 1. Every round runs every cell (the target order rotates per round; a ratio against the upstream or the real server called directly has its two cells run one after the other, each first in turn), and the runner waits for the target to go idle between cells. ` +
      'req/s, p50 and p99 are medians over rounds; errors are summed over rounds (socket errors and timeouts, then non-2xx answers); ' +
      "each ratio is the median over rounds of the two targets' req/s in the same round. The load generator shares the machine's cores with the target, so the fastest targets are partly measured against autocannon itself. ⚠️ marks a cell with errors or a failed answer check. " +
      '"answer check": the target\'s answer to the workload\'s request(s) before round 1, compared byte for byte (status, content-type, body) with the reference simulator where it should match, and again after the last round.',
    '',
    ...run.workloads.flatMap((w) => [workloadSection(w), '']),
    ...(run.skipped.length ? ['### Not run', '', ...run.skipped.map((s) => `- ${s}`), ''] : []),
    '## Startup and memory',
    '',
    processTable(run.processes),
    '',
    '## Measures',
    '',
    measuresSection(run.measures),
    '',
    ...profileNotes(),
    '## How to reproduce',
    '',
    `\`npm ci && npm run build && npm run bench\` (flags: \`--duration S\`, \`--rounds N\`, \`--connections N\`, \`--only TEXT\`, \`--quick\`, \`--no-measures\`); this run: \`${run.command}\`. ` +
      'Needs Java for WireMock and node_modules/opencode-linux-x64 for the real-server pair; each is skipped with a line above when missing.',
    '',
  ].join('\n');
  writeFileSync(file, text);
}
