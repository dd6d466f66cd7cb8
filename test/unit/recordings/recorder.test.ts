import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SimRecordingWriteError } from '../../../src/errors/errors.js';
import type { Answer, Exchange } from '../../../src/exchange/exchange.js';
import { parseRecording, RECORDING_FORMAT } from '../../../src/recordings/format.js';
import { createRecorder } from '../../../src/recordings/recorder.js';
import { DEFAULT_REDACTION } from '../../../src/recordings/redact.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function recordingFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sim-recorder-'));
  dirs.push(dir);
  return join(dir, 'rec.yaml');
}

const exchange = (path: string): Exchange => ({
  id: 'req_000001',
  now: 0,
  method: 'GET',
  pathname: path,
  search: '',
  searchParams: new URLSearchParams(),
  headers: { authorization: 'Bearer sk-unit-secret', accept: 'application/json' },
  rawBody: Buffer.alloc(0),
});

const BODY = { data: { id: 'sh_1', status: 'running' } };
// The same objects for every answer, as the upstream client hands over the same head and the same bytes.
const answer: Answer = {
  kind: 'raw',
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: BODY,
  raw: Buffer.from(JSON.stringify(BODY)),
  served: true,
};

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the recorder', () => {
  it('writes the interactions completed in one turn together, each answer let go once its document is in', async () => {
    const file = recordingFile();
    const recorder = createRecorder(file, { format: RECORDING_FORMAT, specHash: 'h' }, DEFAULT_REDACTION);
    const settled: number[] = [];
    const answers = [1, 2, 3].map((n) =>
      Promise.resolve(recorder.capture(exchange(`/api/shell/sh_${n}`), answer, { operationId: 'op' }, 0)).then(
        (sent) => {
          settled.push(n);
          return sent;
        },
      ),
    );
    // Nothing is written, and no answer let go, before the turn's reads are done.
    expect(parseRecording(readFileSync(file)).interactions).toHaveLength(0);
    await turn();
    expect(settled).toEqual([1, 2, 3]);
    await expect(Promise.all(answers)).resolves.toEqual([answer, answer, answer]);
    const { interactions, tornTail } = parseRecording(readFileSync(file));
    expect(tornTail).toBe(false);
    expect(interactions.map((i) => [i.seq, i.request.path])).toEqual([
      [1, '/api/shell/sh_1'],
      [2, '/api/shell/sh_2'],
      [3, '/api/shell/sh_3'],
    ]);
    expect(interactions[2]?.request.headers.authorization).toBe('[REDACTED]');
    expect(interactions[2]?.response.body).toEqual(BODY);
    recorder.close();
    expect(readFileSync(file, 'utf8')).not.toContain('sk-unit-secret');
  });

  it('masks through scrub the secret values a client sent, wherever they turn up', async () => {
    const file = recordingFile();
    const recorder = createRecorder(file, { format: RECORDING_FORMAT, specHash: 'h' }, DEFAULT_REDACTION, {
      scrub: (text) => text.replaceAll('sh_echoed-secret', '[REDACTED]'),
    });
    await recorder.capture(exchange('/api/shell/sh_echoed-secret'), answer, {}, 0);
    recorder.close();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sh_echoed-secret');
    expect(parseRecording(text).interactions[0]?.request.path).toBe('/api/shell/[REDACTED]');
  });

  it('refuses an interaction completed after close, with the interaction named in the log', async () => {
    const file = recordingFile();
    const lines: string[] = [];
    const recorder = createRecorder(file, { format: RECORDING_FORMAT, specHash: 'h' }, DEFAULT_REDACTION, {
      log: (line) => lines.push(line),
    });
    const written = recorder.capture(exchange('/api/shell/sh_1'), answer, {}, 0);
    // Close writes what is queued: the answer already decided keeps its interaction.
    recorder.close();
    await expect(written).resolves.toBe(answer);
    const late = recorder.capture(exchange('/api/shell/sh_2'), answer, {}, 0);
    await expect(late).rejects.toBeInstanceOf(SimRecordingWriteError);
    expect(lines).toEqual(['record: interaction 2 (GET /api/shell/sh_2) not written: the recording is closed']);
    expect(parseRecording(readFileSync(file)).interactions.map((i) => i.seq)).toEqual([1]);
  });
});
