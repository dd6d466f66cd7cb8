/**
 * Serving another version of the interface (`--spec FILE`): which operations the world still simulates, and
 * what the simulator says about the rest at start and in `GET /__sim/spec`. The world is written for the
 * simulator's own spec; the served document decides routing, validation and the fallback's answers.
 */
import type { SpecIndex } from './openapi.js';
import {
  diffSpecs,
  simulationFits,
  summary,
  type ChangedOperation,
  type OperationRef,
  type SpecDiff,
} from './spec-diff.js';

export interface VersionedOperation extends ChangedOperation {
  /** The world answers it under the served document (it did under the simulator's own, and still fits). */
  simulated: boolean;
}

export interface SpecVersion {
  /** The served document: its path, or "object" when handed in parsed. */
  source: string;
  hash: string;
  summary: string;
  added: OperationRef[];
  removed: OperationRef[];
  moved: VersionedOperation[];
  changed: VersionedOperation[];
  /** Operations the world answers under the served document. */
  simulated: string[];
  /** Operations the world answers under the simulator's own spec whose shape no longer fits: the fallback answers. */
  fellBack: string[];
}

/**
 * Compares the served document with the simulator's own and keeps the world's answers for the operations
 * (of those it answers, `worldOperations`) that are unchanged, or changed or moved within what
 * `simulationFits` allows.
 */
export function specVersion(
  home: SpecIndex,
  served: SpecIndex,
  worldOperations: ReadonlySet<string>,
  source: string,
): SpecVersion {
  const diff: SpecDiff = diffSpecs(home.document, served.document);
  const unfit = new Set<string>();
  const mark = (op: ChangedOperation): VersionedOperation => {
    const world = worldOperations.has(op.operationId);
    const fits = simulationFits(op.changes);
    if (world && !fits) unfit.add(op.operationId);
    return { ...op, simulated: world && fits };
  };
  const moved = diff.moved.map(mark);
  const changed = diff.changed.map(mark);
  const simulated = served.operations
    .map((op) => op.operationId)
    .filter((id) => worldOperations.has(id) && home.byId.has(id) && !unfit.has(id));
  return {
    source,
    hash: served.hash,
    summary: summary(diff),
    added: diff.added,
    removed: diff.removed,
    moved,
    changed,
    simulated,
    fellBack: [...unfit],
  };
}

/** What the simulator says at start: a summary, then one line per operation added, removed, moved or changed. */
export function versionLines(version: SpecVersion): string[] {
  const lines = [
    `spec ${version.source}: ${version.summary}; the world answers ${version.simulated.length} operations, ` +
      `${version.fellBack.length} no longer fit and are the fallback's (GET /__sim/spec lists them)`,
  ];
  const where = (op: OperationRef) => `${op.method} ${op.path}`;
  const first = (op: ChangedOperation) => {
    const change = op.changes.find((c) => !simulationFits([c])) ?? op.changes[0];
    return change ? `${change.side} ${change.message} at ${change.pointer}` : '';
  };
  const verdict = (op: VersionedOperation) =>
    op.simulated
      ? 'keeps its simulation'
      : version.fellBack.includes(op.operationId)
        ? `the fallback answers (${first(op)})`
        : 'the fallback answers, as before';
  for (const op of version.moved)
    lines.push(`  moved    ${op.operationId} ${op.from?.method} ${op.from?.path} → ${where(op)}: ${verdict(op)}`);
  for (const op of version.changed) lines.push(`  changed  ${op.operationId} ${where(op)}: ${verdict(op)}`);
  for (const op of version.added) lines.push(`  added    ${op.operationId} ${where(op)}: the fallback answers`);
  for (const op of version.removed) lines.push(`  removed  ${op.operationId} ${where(op)}`);
  return lines;
}
