/**
 * One thing wrong with a request, where it is: what request validation finds and input errors turn into the
 * operation's declared error. Its own module so the checks that produce violations need not import each other.
 */
export type ViolationPlace = 'path' | 'query' | 'body';

export interface Violation {
  in: ViolationPlace;
  /** The offending field as the client wrote it: `sessionID`, `location[directory]`, `model.id`. */
  field?: string;
  message: string;
}
