import { describe, expect, it } from 'vitest';
import { selectPartition, type Addressable } from '../../../src/http/partition-address.js';
import { incomingExchange, requestTarget } from '../../../src/http/request.js';

type Named = Addressable & { name: string };

/** Partitions that only name themselves: what selectPartition reads of one. */
function fakePartitions(): { default: Named; get(name: string): Named; asked: string[] } {
  const made = new Map<string, Named>();
  const partition = (name: string): Named => {
    let count = 0;
    return {
      name,
      engine: { clock: { settle: () => undefined, now: () => 1_000 } },
      nextRequestId: () => `req_${name}_${++count}`,
    };
  };
  const asked: string[] = [];
  return {
    asked,
    default: partition('default'),
    get(name: string) {
      asked.push(name);
      const found = made.get(name) ?? partition(name);
      made.set(name, found);
      return found;
    },
  };
}

const incoming = (target: string, headers: Record<string, string> = {}) =>
  incomingExchange('GET', requestTarget(target), headers, Buffer.alloc(0));

describe('selectPartition', () => {
  it('takes the partition from a path prefix off the path, and stamps id and time', () => {
    const partitions = fakePartitions();
    const { partition, exchange } = selectPartition(incoming('/__partition/w1/api/session?limit=2'), partitions);
    expect(partition.name).toBe('w1');
    expect(exchange.pathname).toBe('/api/session');
    expect(exchange.search).toBe('?limit=2');
    expect(exchange.id).toBe('req_w1_1');
    expect(exchange.now).toBe(1_000);
  });

  it('decodes the name, and reads a bare prefix as the root path', () => {
    const partitions = fakePartitions();
    expect(selectPartition(incoming('/__partition/a%20b/x'), partitions).exchange.pathname).toBe('/x');
    expect(selectPartition(incoming('/__partition/solo'), partitions).exchange.pathname).toBe('/');
    expect(partitions.asked).toEqual(['a b', 'solo']);
  });

  it('reads a prefixed path asked again the same way, with a new request id', () => {
    const partitions = fakePartitions();
    const first = selectPartition(incoming('/__partition/w2/api/shell/sh_1'), partitions).exchange;
    const again = selectPartition(incoming('/__partition/w2/api/shell/sh_1'), partitions).exchange;
    expect(again.pathname).toBe('/api/shell/sh_1');
    expect(first.id).toBe('req_w2_1');
    expect(again.id).toBe('req_w2_2');
  });

  it('takes the header when the path has no prefix, and the default partition without either', () => {
    const partitions = fakePartitions();
    const named = selectPartition(incoming('/api/session', { 'x-sim-partition': 'w3' }), partitions);
    expect(named.partition.name).toBe('w3');
    expect(named.exchange.pathname).toBe('/api/session');
    expect(selectPartition(incoming('/api/session'), partitions).partition).toBe(partitions.default);
  });
});
