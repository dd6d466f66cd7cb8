/**
 * A prompt's files as the real server takes them: the input names a file by `uri` and nothing more (the real
 * document's PromptInputFileAttachment has no `mime`, and refuses one), and the server gives the stored
 * attachment its media type. The answers that carry the prompt afterwards (the admission, the message listing,
 * the message itself) hold to both documents.
 */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SimApp } from '../../../../src/hosts/app.js';
import { realDocProblems } from '../../../support/real-doc.js';
import { specProblems } from '../../../support/spec-validator.js';

let app: SimApp;
beforeAll(async () => {
  app = await createApp({ scenario: { name: 'prompt-files' }, log: () => {} });
});

async function newSession(): Promise<string> {
  const res = await request(app).post('/api/session').send({}).expect(200);
  return (res.body as { data: { id: string } }).data.id;
}

const json = (res: request.Response) => res.headers['content-type'] as string;

describe('a prompt with files', () => {
  it('takes files named by uri alone, and lists them with the media type the server gives them', async () => {
    const id = await newSession();
    const files = [
      { uri: 'file:///home/dev/app/src/Button.jsx', name: 'Button.jsx' },
      { uri: 'file:///home/dev/app/docs/mockup.png', source: { start: -1, end: 8, text: '@mockup' } },
      { uri: 'data:image/svg+xml;base64,PHN2Zy8+' },
      { uri: 'file:///home/dev/app/Makefile' },
    ];
    const admitted = await request(app)
      .post(`/api/session/${id}/prompt`)
      .send({ prompt: { text: 'Look at these', files }, resume: false });
    expect(admitted.status).toBe(200);
    expect(specProblems('v2.session.prompt', 200, admitted.body, json(admitted))).toEqual([]);
    expect(realDocProblems('v2.session.prompt', 200, admitted.body)).toEqual([]);
    const mimes = ['text/jsx', 'image/png', 'image/svg+xml', 'application/octet-stream'];
    expect((admitted.body as { data: { prompt: { files: Array<{ mime: string }> } } }).data.prompt.files).toEqual(
      files.map((file, i) => ({ ...file, mime: mimes[i] })),
    );

    // Taken up once resumed: the user message then holds the files.
    await request(app)
      .post(`/api/session/${id}/prompt`)
      .send({ prompt: { text: 'and go' } })
      .expect(200);
    await request(app).post('/__sim/clock/advance').send({ by: '10m' }).expect(200);
    const listed = await request(app).get(`/api/session/${id}/message`).expect(200);
    expect(specProblems('v2.session.messages', 200, listed.body, json(listed))).toEqual([]);
    expect(realDocProblems('v2.session.messages', 200, listed.body)).toEqual([]);
    const user = (listed.body as { data: Array<{ id: string; files?: unknown[] }> }).data.find((m) => m.files);
    expect(user?.files).toEqual(files.map((file, i) => ({ ...file, mime: mimes[i] })));
    const one = await request(app).get(`/api/session/${id}/message/${user?.id}`).expect(200);
    expect(specProblems('v2.session.message', 200, one.body, json(one))).toEqual([]);
    expect(realDocProblems('v2.session.message', 200, one.body)).toEqual([]);
  });

  it('takes a source span the real document allows, negative numbers included', async () => {
    const id = await newSession();
    const source = { start: -1, end: -3.5, text: '@general' };
    const res = await request(app)
      .post(`/api/session/${id}/prompt`)
      .send({ prompt: { text: 'x', agents: [{ name: 'general', source }] }, resume: false });
    expect(res.status).toBe(200);
    expect((res.body as { data: { prompt: unknown } }).data.prompt).toEqual({
      text: 'x',
      agents: [{ name: 'general', source }],
    });
    expect(realDocProblems('v2.session.prompt', 200, res.body)).toEqual([]);
  });

  it('refuses a mime the input does not take, naming the field', async () => {
    const id = await newSession();
    const res = await request(app)
      .post(`/api/session/${id}/prompt`)
      .send({ prompt: { text: 'x', files: [{ uri: 'file:///a.png', mime: 'image/png' }] } });
    expect(res.status).toBe(400);
    expect(res.body._tag).toBe('InvalidRequestError');
    expect(JSON.stringify(res.body)).toContain('mime');
    expect(specProblems('v2.session.prompt', 400, res.body, json(res))).toEqual([]);
  });

  it('refuses a file without its uri', async () => {
    const id = await newSession();
    const res = await request(app)
      .post(`/api/session/${id}/prompt`)
      .send({ prompt: { text: 'x', files: [{ name: 'a.png' }] } });
    expect(res.status).toBe(400);
    expect(res.body._tag).toBe('InvalidRequestError');
    expect(JSON.stringify(res.body)).toContain('uri');
  });
});
