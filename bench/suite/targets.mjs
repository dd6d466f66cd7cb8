// The servers the suite measures, each a separate process started as its users start it. A target lists
// what it needs before it can start: captured fixtures (the simulator's bytes), or another target (an
// upstream). `available` says why a target cannot run on this machine, if it cannot.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  emptyFolder,
  writePagingScenario,
  writeRecording,
  writeSessionsScenario,
  writeTapes,
  writeWireMockProxyRoot,
  writeWireMockRoot,
} from './data.mjs';

const node = process.execPath;
const SIM = 'bin/session-agent-sim.js';
const SPEC = 'spec/session-agent.openapi.yaml';
const PRISM = 'node_modules/.bin/prism';
const WIREMOCK_JAR = 'node_modules/wiremock/build/wiremock-standalone-3.13.2.jar';
const REAL_SERVER = 'node_modules/opencode-linux-x64/bin/opencode';
// Prism's CLI phones home to Scarf on start unless told not to; the machine is offline.
const PRISM_ENV = { SCARF_ANALYTICS: 'false' };

function javaMissing() {
  const result = spawnSync('java', ['-version'], { stdio: 'ignore' });
  return result.error || result.status !== 0 ? 'java not found on PATH' : undefined;
}

// --quiet: the CLI prints a line per exchange by default (about 15 µs of an answer here); every peer runs with
// its request logging off too (Prism -v silent, WireMock --disable-request-logging, talkback silent).
// --virtual-time for mock: a world that moved with the wall clock mid-run would answer a later request otherwise.
const sim = (port, ...args) => ({
  command: node,
  args: [SIM, ...args, ...(args[0] === 'mock' ? ['--virtual-time'] : []), '--quiet', '--port', String(port)],
});
const upstreamOf = (ctx) => `http://127.0.0.1:${ctx.ports.upstream}`;
const wiremockAvailable = () => (existsSync(WIREMOCK_JAR) ? javaMissing() : `${WIREMOCK_JAR} not installed`);

/**
 * WireMock standalone on 127.0.0.1 serving a root folder. No per-request logging (WireMock's own advice for
 * load tests); Content-Length rather than chunked bodies, so its answers are framed like every other target's.
 * `journal`: false also turns the request journal off (the same advice); a recorder cannot run without it.
 */
function wiremock(port, root, { journal = false, extra = [] } = {}) {
  return {
    command: 'java',
    args: [
      '-jar',
      WIREMOCK_JAR,
      '--port',
      String(port),
      '--bind-address',
      '127.0.0.1',
      '--root-dir',
      root,
      '--disable-banner',
      ...(journal ? [] : ['--no-request-journal']),
      '--disable-request-logging',
      '--use-chunked-encoding',
      'never',
      ...extra,
    ],
  };
}

export const TARGETS = [
  { id: 'sim-cli', name: 'sim CLI', start: (ctx, port) => sim(port, 'mock') },
  {
    id: 'sim-cli-examples',
    name: 'sim CLI --scenario none',
    start: (ctx, port) => sim(port, 'mock', '--scenario', 'none'),
  },
  // The default scenario answers GET /api/model/default itself, so --dynamic alone would never generate.
  {
    id: 'sim-cli-dynamic',
    name: 'sim CLI --scenario none --dynamic',
    start: (ctx, port) => sim(port, 'mock', '--scenario', 'none', '--dynamic'),
  },
  {
    id: 'sim-cli-paging',
    name: 'sim CLI (10,000-message scenario)',
    prepare: (ctx) => {
      ctx.files.paging = writePagingScenario(ctx.tmp);
    },
    start: (ctx, port) => sim(port, 'mock', '--scenario', ctx.files.paging),
  },
  {
    id: 'sim-cli-sessions',
    name: 'sim CLI (1,000-session scenario)',
    prepare: (ctx) => {
      ctx.files.sessions = writeSessionsScenario(ctx.tmp);
    },
    start: (ctx, port) => sim(port, 'mock', '--scenario', ctx.files.sessions),
  },
  {
    id: 'sim-embedded',
    name: 'sim embedded',
    start: (ctx, port) => ({ command: node, args: ['bench/servers/sim-embedded.mjs', String(port), 'default'] }),
  },
  {
    id: 'sim-embedded-examples',
    name: 'sim embedded (examples)',
    start: (ctx, port) => ({ command: node, args: ['bench/servers/sim-embedded.mjs', String(port), 'none'] }),
  },
  {
    id: 'sim-replay-100',
    name: 'sim replay (100)',
    prepare: (ctx) => {
      ctx.files.recording100 = writeRecording(ctx.tmp, 100);
    },
    start: (ctx, port) => sim(port, 'replay', '--recording', ctx.files.recording100),
  },
  {
    id: 'sim-replay-100k',
    name: 'sim replay (100,000)',
    prepare: (ctx) => {
      ctx.files.recording100k = writeRecording(ctx.tmp, 100_000);
    },
    start: (ctx, port) => sim(port, 'replay', '--recording', ctx.files.recording100k),
  },
  {
    id: 'prism',
    name: 'Prism CLI static',
    // -v silent: Prism logs every request at info level, and a logging Prism measures its logger.
    start: (ctx, port) => ({
      command: PRISM,
      args: ['mock', '-h', '127.0.0.1', '-p', String(port), '-v', 'silent', SPEC],
      env: PRISM_ENV,
    }),
  },
  {
    id: 'prism-dynamic',
    name: 'Prism CLI -d',
    start: (ctx, port) => ({
      command: PRISM,
      args: ['mock', '-h', '127.0.0.1', '-p', String(port), '-d', '--seed', 'bench', '-v', 'silent', SPEC],
      env: PRISM_ENV,
    }),
  },
  {
    id: 'talkback-100',
    name: 'talkback (100)',
    prepare: (ctx) => {
      ctx.files.tapes100 = writeTapes(ctx.tmp, 100);
    },
    start: (ctx, port) => ({ command: node, args: ['bench/servers/talkback.mjs', String(port), ctx.files.tapes100] }),
  },
  {
    id: 'talkback-100k',
    name: 'talkback (100,000)',
    prepare: (ctx) => {
      ctx.files.tapes100k = writeTapes(ctx.tmp, 100_000);
    },
    start: (ctx, port) => ({ command: node, args: ['bench/servers/talkback.mjs', String(port), ctx.files.tapes100k] }),
    // It parses one JSON5 file per tape before it listens.
    deadlineMs: 180_000,
  },
  {
    id: 'bare-node',
    name: 'bare node:http',
    fixtures: 'static',
    start: (ctx, port) => ({
      command: node,
      args: ['bench/servers/bare-node.mjs', String(port), ctx.fixturesFile, 'static'],
    }),
  },
  {
    id: 'bare-node-dynamic',
    name: 'bare node:http (dynamic bytes)',
    fixtures: 'dynamic',
    start: (ctx, port) => ({
      command: node,
      args: ['bench/servers/bare-node.mjs', String(port), ctx.fixturesFile, 'dynamic'],
    }),
  },
  {
    id: 'bare-express',
    name: 'bare Express 5',
    fixtures: 'static',
    start: (ctx, port) => ({
      command: node,
      args: ['bench/servers/bare-express.mjs', String(port), ctx.fixturesFile, 'static'],
    }),
  },
  {
    id: 'wiremock',
    name: 'WireMock',
    fixtures: 'static',
    available: wiremockAvailable,
    prepare: (ctx) => {
      ctx.files.wiremockRoot = writeWireMockRoot(ctx.tmp, ctx.fixtures.static);
    },
    start: (ctx, port) => wiremock(port, ctx.files.wiremockRoot),
  },
  {
    id: 'upstream',
    name: 'upstream (bare node:http) direct',
    fixtures: 'static',
    start: (ctx, port) => ({
      command: node,
      args: ['bench/servers/bare-node.mjs', String(port), ctx.fixturesFile, 'static'],
    }),
  },
  {
    id: 'sim-record',
    name: 'sim record → upstream',
    needs: ['upstream'],
    start: (ctx, port) => {
      ctx.files.recordOut = join(ctx.tmp, 'rec.yaml');
      return sim(port, 'record', '--upstream', upstreamOf(ctx), '--recording', ctx.files.recordOut);
    },
  },
  // The proxy workload's peers, each in front of the same upstream, as its users start it.
  {
    id: 'sim-proxy',
    name: 'sim proxy → upstream',
    needs: ['upstream'],
    start: (ctx, port) => sim(port, 'proxy', '--upstream', upstreamOf(ctx)),
  },
  {
    id: 'prism-proxy',
    name: 'Prism CLI proxy → upstream',
    needs: ['upstream'],
    // Prism checks each request and answer against the spec; with --errors off (its default) a violation is
    // only reported in an sl-violations header, never turned into an error answer, so what it forwards is 2xx.
    start: (ctx, port) => ({
      command: PRISM,
      args: ['proxy', SPEC, upstreamOf(ctx), '-h', '127.0.0.1', '-p', String(port), '-v', 'silent'],
      env: PRISM_ENV,
    }),
  },
  {
    id: 'wiremock-proxy',
    name: 'WireMock proxy → upstream',
    needs: ['upstream'],
    available: wiremockAvailable,
    prepare: (ctx) => {
      ctx.files.wiremockProxyRoot = writeWireMockProxyRoot(ctx.tmp, upstreamOf(ctx));
    },
    start: (ctx, port) => wiremock(port, ctx.files.wiremockProxyRoot),
  },
  {
    id: 'mockttp-passthrough',
    name: 'mockttp forwardTo → upstream',
    needs: ['upstream'],
    start: (ctx, port) => ({ command: node, args: ['bench/servers/mockttp.mjs', String(port), upstreamOf(ctx)] }),
  },
  // The record workload's peers.
  {
    id: 'wiremock-record',
    name: 'WireMock record → upstream',
    needs: ['upstream'],
    available: wiremockAvailable,
    prepare: (ctx) => {
      ctx.files.wiremockRecordRoot = emptyFolder(ctx.tmp, 'wiremock-record');
    },
    // --record-mappings refuses to start without the request journal: before writing a mapping WireMock counts
    // the journal's requests like this one, and writes only the first of each (every request is still proxied).
    // The journal is bounded so that the cell measures recording rather than a journal holding every request
    // of the run (which that count scans); at the rates reached here, 3 s with and without the bound showed no
    // difference.
    start: (ctx, port) =>
      wiremock(port, ctx.files.wiremockRecordRoot, {
        journal: true,
        extra: ['--max-request-journal-entries', '1000', '--proxy-all', upstreamOf(ctx), '--record-mappings'],
      }),
  },
  {
    id: 'talkback-record',
    name: 'talkback record (OVERWRITE) → upstream',
    needs: ['upstream'],
    prepare: (ctx) => {
      ctx.files.talkbackRecordTapes = emptyFolder(ctx.tmp, 'talkback-record');
    },
    start: (ctx, port) => ({
      command: node,
      args: ['bench/servers/talkback.mjs', String(port), ctx.files.talkbackRecordTapes, upstreamOf(ctx)],
    }),
  },
  {
    id: 'real-server',
    name: 'real server (opencode serve) direct',
    available: () =>
      process.platform === 'linux' && process.arch === 'x64' && existsSync(REAL_SERVER)
        ? undefined
        : `${REAL_SERVER} not installed`,
    // As test/support/real-server.ts starts it: a fresh git repository and a throwaway HOME.
    prepare: (ctx) => {
      const repo = join(ctx.tmp, 'real', 'repo');
      const home = join(ctx.tmp, 'real', 'home');
      mkdirSync(repo, { recursive: true });
      mkdirSync(home, { recursive: true });
      const env = { ...process.env, HOME: home };
      spawnSync('git', ['init', '-q'], { cwd: repo, env });
      spawnSync(
        'git',
        ['-c', 'user.email=sim@example.invalid', '-c', 'user.name=sim', 'commit', '-q', '--allow-empty', '-m', 'init'],
        { cwd: repo, env },
      );
      ctx.files.realRepo = repo;
      ctx.files.realHome = home;
    },
    start: (ctx, port) => ({
      command: join(ctx.root, REAL_SERVER),
      args: ['serve', '--port', String(port), '--hostname', '127.0.0.1', '--pure'],
      cwd: ctx.files.realRepo,
      env: { HOME: ctx.files.realHome, OPENCODE_SERVER_PASSWORD: '' },
    }),
  },
  {
    id: 'sim-record-real',
    name: 'sim record → real server',
    needs: ['real-server'],
    start: (ctx, port) => {
      ctx.files.recordRealOut = join(ctx.tmp, 'rec-real.yaml');
      return sim(
        port,
        'record',
        '--upstream',
        `http://127.0.0.1:${ctx.ports['real-server']}`,
        '--recording',
        ctx.files.recordRealOut,
      );
    },
  },
];

export const TARGET_BY_ID = new Map(TARGETS.map((t) => [t.id, t]));
