/**
 * What the layers that answer share with the pipeline: the request as accepted (routed and validated), and
 * the shape of a layer. The pipeline asks each layer in turn; one with nothing to say returns undefined and
 * the next is asked.
 */
import type { Answer, Exchange } from '../exchange/exchange.js';
import type { AnsweredBy, NearMiss } from '../exchange/answered-by.js';
import type { OperationDefinition } from '../openapi/openapi.js';
import type { Partition } from '../control/partitions.js';
import type { RuleDefinition } from '../state/scenario.js';
import type { Preferences } from './preferences.js';

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
