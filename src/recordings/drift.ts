/**
 * The drift report: every recorded answer checked against the spec, grouped per operation, so what the
 * real server does differently is visible at a glance.
 */
import { checkAnswer } from '../openapi/answer-check.js';
import type { SpecIndex } from '../openapi/openapi.js';
import type { ParsedRecording } from './format.js';

export interface OperationDrift {
  operationId: string;
  answers: number;
  /** Each distinct violation with how many answers showed it. */
  findings: Array<{ problem: string; count: number }>;
}

export interface DriftReport {
  interactions: number;
  specMatches: boolean;
  operations: OperationDrift[];
  /** Requests outside the spec, as `METHOD /path` with counts. */
  outside: Array<{ request: string; count: number }>;
}

export function driftReport(recording: ParsedRecording, spec: SpecIndex): DriftReport {
  const byOperation = new Map<string, { answers: number; findings: Map<string, number> }>();
  const outside = new Map<string, number>();
  for (const interaction of recording.interactions) {
    const operation = interaction.operationId === undefined ? undefined : spec.byId.get(interaction.operationId);
    if (!operation) {
      const key = `${interaction.request.method} ${interaction.request.path}`;
      outside.set(key, (outside.get(key) ?? 0) + 1);
      continue;
    }
    const entry = byOperation.get(operation.operationId) ?? { answers: 0, findings: new Map<string, number>() };
    entry.answers++;
    // A stream's body is its chunks; only its status can be held to the spec.
    const body = interaction.response.chunks ? undefined : interaction.response.body;
    const problems = interaction.response.chunks
      ? checkAnswer(operation, interaction.response.status, undefined)
          .map((v) => v.message)
          .filter((p) => p.startsWith('status'))
      : checkAnswer(operation, interaction.response.status, body).map((v) => v.message);
    for (const problem of problems) entry.findings.set(problem, (entry.findings.get(problem) ?? 0) + 1);
    byOperation.set(operation.operationId, entry);
  }
  return {
    interactions: recording.interactions.length,
    specMatches: recording.header?.specHash === spec.hash,
    operations: [...byOperation.entries()]
      .map(([operationId, e]) => ({
        operationId,
        answers: e.answers,
        findings: [...e.findings.entries()].map(([problem, count]) => ({ problem, count })),
      }))
      .sort((a, b) => a.operationId.localeCompare(b.operationId)),
    outside: [...outside.entries()]
      .map(([request, count]) => ({ request, count }))
      .sort((a, b) => a.request.localeCompare(b.request)),
  };
}

export function formatDrift(file: string, report: DriftReport): string {
  const lines = [
    `${file}: ${report.interactions} interactions${report.specMatches ? '' : ' (recorded against another version of the spec)'}`,
  ];
  const drifting = report.operations.filter((o) => o.findings.length);
  for (const op of drifting) {
    lines.push(`  ${op.operationId} (${op.answers} answer${op.answers === 1 ? '' : 's'}):`);
    for (const f of op.findings) lines.push(`    ${f.problem}${f.count > 1 ? `  ×${f.count}` : ''}`);
  }
  const clean = report.operations.filter((o) => !o.findings.length);
  if (clean.length) lines.push(`  as the spec says: ${clean.map((o) => `${o.operationId} (${o.answers})`).join(', ')}`);
  if (report.outside.length)
    lines.push(
      `  outside the spec: ${report.outside.map((o) => `${o.request}${o.count > 1 ? ` ×${o.count}` : ''}`).join(', ')}`,
    );
  return lines.join('\n');
}
