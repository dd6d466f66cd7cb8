/**
 * How a kind keeps what clients create bounded: each kind declares its bounds in its own folder
 * (`./pty/limits.ts`), so memory stays bounded under abuse; beyond the bound the client gets
 * SimResourceLimitError, as beyond the partitions' bound.
 */
import { SimResourceLimitError } from '../errors/sim-errors.js';

/** Throws SimResourceLimitError when a table already holds as many as its bound allows. */
export function ensureRoom(held: number, bound: number, noun: string): void {
  if (held >= bound) throw new SimResourceLimitError(noun, bound);
}
