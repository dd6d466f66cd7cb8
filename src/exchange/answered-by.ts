/**
 * Who answered an exchange, as the log, the journal and the `x-sim-layer` header say it, and the rule that
 * came closest when none answered: what the log below the layers records of them. The layers themselves, and
 * the request they are asked with, are src/layers/layer.ts.
 */
/**
 * Who answered, as the `x-sim-layer` header, the journal and coverage report it: what a layer of the answer
 * stage answers as, or a stage of the pipeline that answered before it. Several layers answer as one source
 * (the world's layers all as `scenario`), so this is not a layer's name.
 */
export type AnsweredBy =
  | 'rule'
  | 'scenario'
  | 'fallback'
  | 'upstream'
  | 'record'
  | 'replay'
  | 'validation'
  | 'auth'
  | 'simulator'
  | 'control'
  | 'cors';

/** The rule that came closest to answering a request no rule answered, and the first condition it failed. */
export interface NearMiss {
  /** Where the rule is written (`runtime rule rul_1`, `scenarios/x.yaml rules[0]`). */
  rule: string;
  /** That condition in one sentence: `query limit is 5; the rule wants 10`. */
  failed: string;
}
