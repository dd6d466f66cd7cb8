/**
 * What a frontend asks first: is the server up (`GET /api/health`), and where is it (`GET /api/location`).
 * The location is the one every location envelope of this world carries: the partition's project, and the
 * directory and workspace the request names, so an app that reads it first finds the same project everywhere.
 */
import { jsonAnswer } from '../../exchange/exchange.js';
import { resolveLocation } from '../../openapi/location.js';
import { answered } from '../answers.js';
import type { Kind } from '../kind.js';

export const server: Kind = {
  name: 'server',

  handlers: {
    'v2.health.get': () => answered(jsonAnswer(200, { healthy: true })),
    'v2.location.get': (request, context) =>
      answered(jsonAnswer(200, resolveLocation(context.project, request.query.location))),
  },
};
