/**
 * nock replaces Node's HTTP client from its import on. In a worker that runs file after file, it would stay in
 * place for the files after the one that used it: their plain `http.get` would read through its mock socket,
 * which takes every byte at once (a test of a slow reader then never sees one). A file that uses nock calls
 * `useNock()`: nock is on while its tests run, and off after them.
 */
import nock from 'nock';
import { afterAll, beforeAll } from 'vitest';

export function useNock(): void {
  beforeAll(() => {
    if (!nock.isActive()) nock.activate();
  });
  afterAll(() => {
    nock.cleanAll();
    nock.restore();
  });
}
