/**
 * The pipeline as its hosts call it (the socket server, the lean server, `fetch`): a request as read in, a
 * reply out. Declared here rather than beside the pipeline (src/pipeline/pipeline.ts), which builds on the HTTP
 * floor, so that the hosts need nothing from above it.
 */
import type { Answer } from '../exchange/exchange.js';
import type { IncomingExchange } from './request.js';

/** What the pipeline sends for one request: the answer, and the headers every answer carries. */
export interface Reply {
  answer: Answer;
  headers: Record<string, string>;
}

/** The pipeline without its host: a request as read in, the decision out. */
export type Decide = (incoming: IncomingExchange) => Promise<Reply>;
