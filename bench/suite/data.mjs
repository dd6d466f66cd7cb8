// The files the targets serve from, generated in the run's temporary folder: a paging scenario, a scenario of
// many sessions, recordings of N interactions for `replay`, talkback tapes of the same interactions, WireMock
// stub mappings (static answers, or one proxying everything), and the empty folders the recorders write to.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { headerDocument, interactionDocument } from '../../dist/recordings/format.js';

export const PAGING_SESSION = 'ses_bench0paging00000000000001';

export function writePagingScenario(dir, messages = 10_000) {
  // The simulator wants a scenario's name to be its file's name.
  const file = join(dir, 'bench-paging.yaml');
  // One written message gives the generator a real first entry; the rest are generated.
  writeFileSync(
    file,
    [
      'name: bench-paging',
      `description: One session of ${messages} messages for the paging workload.`,
      'sessions:',
      `  - id: ${PAGING_SESSION}`,
      '    title: Bench paging',
      '    messages:',
      '      - id: msg_203a40000001AaAaAaAaAaAaAa',
      '        type: user',
      '        text: Page through me.',
      `    generate: { count: ${messages - 1} }`,
      '',
    ].join('\n'),
  );
  return file;
}

export const LIST_SESSIONS = 1000;
const LIST_TITLES = [
  'Fix the flaky login test',
  'Add dark mode',
  'Migrate the orders table',
  'Review the checkout flow',
];

const listId = (prefix, i) => `${prefix}_bench0list${String(i).padStart(16, '0')}`;

/**
 * Sessions for the session-list workload, each with a title. A session without messages is created and
 * updated at the start, and a thousand of those would tie and list in id order, so each has a message of its
 * own second instead, in an order that is not the ids'. The format dates a message from the start, never
 * before it, so these are ahead of the clock; the list does not mind. Every tenth session also has two
 * earlier messages (without `at`: dated before the start, the format's default), so its created and updated
 * times differ.
 */
export function writeSessionsScenario(dir, count = LIST_SESSIONS) {
  // The simulator wants a scenario's name to be its file's name.
  const file = join(dir, 'bench-sessions.yaml');
  const lines = ['name: bench-sessions', `description: ${count} sessions for the session-list workload.`, 'sessions:'];
  let message = 0;
  for (let i = 1; i <= count; i++) {
    lines.push(
      `  - id: ${listId('ses', i)}`,
      `    title: ${LIST_TITLES[i % LIST_TITLES.length]} (${i})`,
      '    messages:',
    );
    if (i % 10 === 0)
      lines.push(
        `      - { id: ${listId('msg', ++message)}, type: user, text: Start here. }`,
        `      - { id: ${listId('msg', ++message)}, type: agent-switched, agent: plan }`,
      );
    // 7919 is prime, so i × 7919 mod count visits every second once.
    const at = ((i * 7919) % count) + 1;
    lines.push(`      - { id: ${listId('msg', ++message)}, type: user, text: Carry on., at: ${at}s }`);
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function sessionOf(i) {
  return `ses_bench${String(i).padStart(8, '0')}`;
}

/** The request path of interaction i (1-based), the same in the recording and in the tapes. */
export function replayPath(i) {
  return `/api/session/${sessionOf(i)}/message?limit=1`;
}

function responseBody(i) {
  return {
    data: [{ id: `msg_${i}`, time: { created: 1795366411614 + i }, type: 'agent-switched', agent: 'plan' }],
    cursor: { previous: 'eyJpZCI6Im1zZ18x', next: 'eyJpZCI6Im1zZ18y' },
  };
}

/** A recording in the simulator's format, built as `record` would write it (one document per interaction). */
export function writeRecording(dir, count) {
  const file = join(dir, `recording-${count}.yaml`);
  const parts = [headerDocument({ format: 'session-agent-sim/recording@1', specHash: 'bench' })];
  for (let i = 1; i <= count; i++) {
    const sessionID = sessionOf(i);
    parts.push(
      interactionDocument({
        seq: i,
        operationId: 'v2.session.messages',
        pathParams: { sessionID },
        request: {
          method: 'GET',
          path: `/api/session/${sessionID}/message`,
          query: { limit: '1' },
          headers: { accept: '*/*' },
        },
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: responseBody(i) },
        timing: { started: '2026-11-22T16:53:31.551Z', durationMs: 3 },
      }),
    );
  }
  writeFileSync(file, parts.join(''));
  return file;
}

/**
 * The same interactions as talkback tapes, one file each (talkback's layout). The response body is stored
 * base64 (resHumanReadable false) so talkback sends the bytes the simulator sends, not a pretty-printed copy.
 */
export function writeTapes(dir, count) {
  const tapes = join(dir, `tapes-${count}`);
  mkdirSync(tapes, { recursive: true });
  for (let i = 1; i <= count; i++) {
    const body = Buffer.from(JSON.stringify(responseBody(i)));
    const tape = {
      meta: {
        createdAt: '2026-11-22T16:53:31.551Z',
        host: 'http://127.0.0.1:9',
        reqHumanReadable: false,
        resHumanReadable: false,
      },
      req: { url: replayPath(i), method: 'GET', headers: {}, body: '' },
      res: {
        status: 200,
        headers: { 'content-type': ['application/json'], 'content-length': [String(body.length)] },
        body: body.toString('base64'),
      },
    };
    writeFileSync(join(tapes, `tape-${String(i).padStart(6, '0')}.json5`), JSON.stringify(tape));
  }
  return tapes;
}

/** WireMock's root folder: one stub per fixture, matching method and URL (path and query) exactly. */
export function writeWireMockRoot(dir, fixtures) {
  const root = join(dir, 'wiremock');
  mkdirSync(join(root, 'mappings'), { recursive: true });
  mkdirSync(join(root, '__files'), { recursive: true });
  fixtures.forEach((fixture, i) => {
    const mapping = {
      request: { method: fixture.method, url: fixture.url },
      response: { status: fixture.status, headers: { 'Content-Type': fixture.contentType }, base64Body: fixture.body },
    };
    writeFileSync(join(root, 'mappings', `stub-${i}.json`), JSON.stringify(mapping, null, 2));
  });
  return root;
}

/** WireMock's root folder for proxying: one mapping, any method and URL, forwarded to `upstream` (path and query kept). */
export function writeWireMockProxyRoot(dir, upstream) {
  const root = join(dir, 'wiremock-proxy');
  mkdirSync(join(root, 'mappings'), { recursive: true });
  mkdirSync(join(root, '__files'), { recursive: true });
  const mapping = { request: { method: 'ANY', urlPattern: '.*' }, response: { proxyBaseUrl: upstream } };
  writeFileSync(join(root, 'mappings', 'proxy-all.json'), JSON.stringify(mapping, null, 2));
  return root;
}

/** A fresh, empty folder of the run's for a recorder to write into (WireMock's root, talkback's tapes). */
export function emptyFolder(dir, name) {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  return folder;
}
