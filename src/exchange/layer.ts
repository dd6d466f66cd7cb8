/**
 * What the layers that answer share with the pipeline: the request as accepted (routed and validated), and
 * the shape of a layer. The pipeline asks each layer in turn; one with nothing to say returns undefined and
 * the next is asked.
 */
import type { Partition } from '../state/partitions.js';
import type { OperationDefinition } from '../openapi/openapi.js';
import type { Preferences } from '../layers/preferences.js';
import type { RuleDefinition } from '../scenarios/definition.js';
import type { Answer, Exchange } from './exchange.js';

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

/**
 * What a rule is matched against: a request as accepted, or one no operation of the spec matches (then
 * `operation` is absent, the query is as sent and the body as parsed, if it is JSON).
 */
export interface RuleSubject {
  exchange: Exchange;
  operation?: OperationDefinition;
  pathParams: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** The partition the request was addressed to: its world, clock, rules and replay cursors. */
  partition: Partition;
  /**
   * Left by the rule layers when rules of this operation (or path) exist and none matched: the closest of them
   * and how many of its conditions held (to weigh a later layer's rules against). The journal shows it when no
   * rule answered.
   */
  nearMiss?: NearMiss & { held: number };
  /**
   * Left by a rule whose `then.stream` matched: it answers nothing itself, and the stream whoever answers
   * sends goes through its faults (`src/layers/stream-faults.ts`).
   */
  streamFault?: { rule: RuleDefinition; use: number };
}

export interface AcceptedRequest extends RuleSubject {
  operation: OperationDefinition;
  preferences: Preferences;
}

/** The rule that came closest to answering a request no rule answered, and the first condition it failed. */
export interface NearMiss {
  /** Where the rule is written (`runtime rule rul_1`, `scenarios/x.yaml rules[0]`). */
  rule: string;
  /** That condition in one sentence: `query limit is 5; the rule wants 10`. */
  failed: string;
}

export interface Layer {
  /** The layer itself, one name each (`runtime-rules`, `world`): what code and tests call it. */
  readonly name: string;
  /** What it reports as having answered; an answer may say otherwise (`Answer.answeredBy`: a replay). */
  readonly answersAs: AnsweredBy;
  /** Serves `Prefer: code/example/dynamic`; layers without it are skipped for requests that carry one. */
  readonly honorsPreferences?: boolean;
  /** An answer at once where the layer has one at hand (most do): awaiting only what must wait costs less. */
  respond(request: AcceptedRequest): Answer | undefined | Promise<Answer | undefined>;
}
