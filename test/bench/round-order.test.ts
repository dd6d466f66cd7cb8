import { describe, expect, it } from 'vitest';
// @ts-expect-error: the bench is plain JavaScript without declarations
import { roundOrder, WORKLOADS } from '../../bench/suite/workloads.mjs';

type Order = (workload: unknown, targets: string[], round: number, criteria?: unknown[]) => string[];
const order = roundOrder as Order;
const record = (WORKLOADS as Array<{ id: string; targets: string[] }>).find((w) => w.id === 'record');

describe('roundOrder', () => {
  it('runs a ratio against the upstream with its two cells side by side, each first in turn', () => {
    const targets = record?.targets ?? [];
    expect(targets).toEqual(['upstream', 'sim-record', 'wiremock-record', 'talkback-record']);
    const rounds = [0, 1, 2, 3].map((round) => order(record, targets, round));
    for (const turn of rounds) {
      expect([...turn].sort()).toEqual([...targets].sort());
      expect(Math.abs(turn.indexOf('upstream') - turn.indexOf('sim-record'))).toBe(1);
    }
    expect(rounds.map((turn) => turn.indexOf('upstream') < turn.indexOf('sim-record'))).toEqual([
      true,
      false,
      true,
      false,
    ]);
    // The units still rotate: each starts a round.
    expect(new Set(rounds.slice(0, 3).map((turn) => (turn[0] === 'sim-record' ? 'upstream' : turn[0]))).size).toBe(3);
  });

  it('rotates targets one by one where no ratio is taken against the workload’s reference', () => {
    const workload = { id: 'x' };
    expect(order(workload, ['a', 'b', 'c'], 0, [])).toEqual(['a', 'b', 'c']);
    expect(order(workload, ['a', 'b', 'c'], 1, [])).toEqual(['b', 'c', 'a']);
  });
});
