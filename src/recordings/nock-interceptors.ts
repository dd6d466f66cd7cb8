/**
 * Replays a recording in a Node test without any server: one nock interceptor per recorded interaction,
 * in recorded order (nock uses each once, so identical polls get their answers in sequence). Needs nock,
 * which the test using it installs; nothing else in the simulator imports this module.
 */
import { readFileSync } from 'node:fs';
import nock from 'nock';
import { parseRecording } from './format.js';

export function nockRecording(file: string, baseUrl?: string): nock.Scope {
  const recording = parseRecording(readFileSync(file, 'utf8'));
  const scope = nock(baseUrl ?? recording.header?.upstream ?? 'http://127.0.0.1:4010');
  for (const { request, response } of recording.interactions) {
    const body = response.chunks ? response.chunks.map((c) => c.data).join('') : response.body;
    const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => name !== 'content-length'));
    // Redacted request bodies cannot be compared with live secrets: match on method, path and query.
    scope
      .intercept(request.path, request.method)
      .query(request.query)
      .reply(response.status, body === undefined ? undefined : (body as nock.Body), headers);
  }
  return scope;
}
