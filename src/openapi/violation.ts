/**
 * One thing wrong with an exchange against the spec, where it is: what request validation finds (and input
 * errors turn into the operation's declared error) and what the answer check finds. Kept as data from the
 * check to the journal, the exchange details, the inspector and coverage, as Prism keeps its diagnostics, so
 * each reader can group or count by place without parsing sentences. Its own module so the checks that
 * produce violations need not import each other.
 */

/**
 * Where the problem is. A request: a path parameter, a query parameter, the body (content type, JSON syntax,
 * schema), or its route (no operation of the spec matches, noted in the proxy modes). An answer: its status
 * (not declared) or its body (missing, unexpected, or against the status's schema).
 */
export type ViolationPlace = 'path' | 'query' | 'body' | 'status' | 'route';

export interface Violation {
  side: 'request' | 'response';
  in: ViolationPlace;
  /**
   * The offending field when known: a parameter as the client wrote it (`sessionID`, `location[directory]`),
   * a body field as a dotted path (`model.id`, `data.effect`).
   */
  field?: string;
  /** The whole sentence, field included, as a person reads it. */
  message: string;
}
