/**
 * A bounded log of recent exchanges: what was asked, which operation it was, who answered and how.
 * The control API and (later) the inspector read it; old entries fall off so memory stays flat.
 */
export interface JournalEntry {
  id: string;
  time: number;
  method: string;
  path: string;
  operationId?: string;
  layer: string;
  status: number;
  /** Spec violations of the answer, if any (an answer is always checked). */
  violations?: string[];
}

export interface Journal {
  record(entry: JournalEntry): void;
  entries(): JournalEntry[];
  clear(): void;
}

export function createJournal(capacity = 1000): Journal {
  const ring: JournalEntry[] = [];
  let next = 0;
  return {
    record(entry) {
      if (ring.length < capacity) ring.push(entry);
      else ring[next] = entry;
      next = (next + 1) % capacity;
    },
    entries() {
      return ring.length < capacity ? [...ring] : [...ring.slice(next), ...ring.slice(0, next)];
    },
    clear() {
      ring.length = 0;
      next = 0;
    },
  };
}
