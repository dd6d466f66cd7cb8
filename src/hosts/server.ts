/**
 * Starts the simulator on a socket: for the CLI, and for tests that want a real port in-process.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { answerUncaught, createSimulator, uncaughtAnswer, type PipelineDeps, type Simulator } from './app.js';
import type { SimOptions } from '../config/config.js';
import { checkSimOptions } from '../config/options.js';
import { writeCoverageFile } from '../control/coverage-file.js';
import { parseScenario } from '../scenarios/load-scenario.js';
import { watchScenarioFile, type ScenarioWatchHandlers } from '../scenarios/watch.js';
import { connectRefusal, endSocketWith, expectationRefusal, refusal } from '../http/socket-answer.js';
import { handleUpgrades, type UpgradeServer } from '../http/upgrade-tunnel.js';
import { upgradeResponse } from '../http/websocket.js';
import { serveLean } from '../http/lean-http.js';

export interface RunningSimulator {
  url: string;
  port: number;
  /** The simulator serving (`app.sim`: its config, partitions, spec). */
  app: Simulator;
  /**
   * Node's server, listening. The requests almost every client sends are read from its connections and answered
   * without Node's request and response objects (`src/http/lean-http.ts`): its `request` event sees only the
   * rest (HEAD, upgrades, chunked bodies, `Connection: close`, anything unusual).
   */
  server: Server;
  /** Stops listening and closes every connection; with `graceMs`, answers in flight get that long to finish. */
  close(options?: { graceMs?: number }): Promise<void>;
}

export async function startServer(options: SimOptions = {}): Promise<RunningSimulator> {
  checkSimOptions(options, 'startServer');
  // Creating the app loads the scenario and then Prism, which takes a while: an edit in between must count.
  const loadedAt = Date.now();
  const app = await createSimulator(options);
  const { host, port } = app.sim.config;
  const { maxHeaderSize, requestTimeout } = app.sim.config;
  const server = createServer(
    {
      maxHeaderSize,
      // One deadline for the whole request, headers included: a slow or half-open client holds a socket for
      // that long at most. Node checks every 30 s by default, too coarse for a short timeout.
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(requestTimeout / 4))),
    },
    (req, res) => {
      app.pipeline(req, res).catch((error: unknown) => answerUncaught(error, res, app.sim.config.log));
    },
  );
  // The requests almost every client sends are read and answered without Node's request and response objects;
  // the rest (and every refusal, deadline and upgrade) is Node's, as the code below sets it up.
  serveLean(server, {
    decide: app.decide,
    bodyLimit: app.sim.config.bodyLimit,
    maxHeaderSize,
    openStreams: app.sim.openStreams,
    uncaught: (error) => uncaughtAnswer(error, app.sim.config.log),
  });
  // Node's deadlines start with the first byte: a connection that never sends one would be held for ever.
  server.on('connection', (socket) => {
    const idle = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, requestTimeout);
    idle.unref();
    socket.once('close', () => clearTimeout(idle));
  });
  server.on('connect', (_req, socket: Duplex) => endSocketWith(socket, connectRefusal()));
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const refusal = expectationRefusal(String(req.headers.expect));
    res
      .writeHead(refusal.status, { 'content-type': 'application/json', connection: 'close' })
      .end(JSON.stringify(refusal.toBody()));
  });
  // Without this Node answers a refused request itself: a bare 431 or 400 with an empty body.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE') {
      socket.destroy();
      return;
    }
    endSocketWith(socket, refusal(error.code, maxHeaderSize, requestTimeout));
  });
  // The mock answers upgrades through the pipeline (a PTY's WebSocket is its world's); the pass-through modes
  // tunnel them to the upstream, or refuse them without one.
  const serveUpgrade: UpgradeServer | undefined = app.sim.passThrough
    ? undefined
    : (req, socket, head) => {
        const res = upgradeResponse(req, socket, head);
        app.pipeline(req, res).catch((error: unknown) => answerUncaught(error, res, app.sim.config.log));
      };
  const closeTunnels = handleUpgrades(
    server,
    app.sim.config.upstream === undefined ? undefined : new URL(app.sim.config.upstream),
    app.sim.config.auth,
    serveUpgrade,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const stopWatching = watchScenario(app.sim, loadedAt);
  const actual = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${actual}`,
    port: actual,
    app,
    server,
    close: async ({ graceMs = 0 } = {}) => {
      stopWatching();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        closeTunnels();
        // Streams never end by themselves: end them (their recordings are written as they close), let the
        // answers in flight finish within the grace period, and cut what is still open after it.
        app.sim.partitions.endStreams();
        // Forwarded streams have no channel to close: their answers are ended once the channels had their turn.
        setImmediate(() => {
          for (const res of app.sim.openStreams ?? []) res.end();
        });
        server.closeIdleConnections();
        if (graceMs > 0) setTimeout(() => server.closeAllConnections(), graceMs).unref();
        else server.closeAllConnections();
      });
      const { config, partitions, spec, passThrough } = app.sim;
      // The last recorded streams are written as their connections close, which the loop reports a turn later.
      await new Promise((resolve) => setImmediate(resolve));
      passThrough?.close();
      if (config.coverage !== undefined) {
        const report = writeCoverageFile(config.coverage, partitions, spec);
        config.log(`coverage: ${report.summary.line} (${config.coverage})`);
      }
      partitions.dispose();
      // The last exchanges' lines go out before whoever closed the simulator exits.
      app.sim.printer?.flush();
    },
  };
}

/**
 * `watch`: a change to the served scenario's file restarts, from the new definition, every partition serving
 * that file; a broken edit is noted in their logs (`reload.failed`) and the log, and changes nothing.
 */
function watchScenario({ config, library, partitions, spec }: PipelineDeps, loadedAt: number): () => void {
  if (!config.watch) return () => {};
  const served = partitions.default.engine.scenario;
  if (!library || typeof config.scenario !== 'string' || !served) {
    const why = library
      ? config.scenario === undefined
        ? 'no scenario is served'
        : 'a scenario given as an object has no file'
      : 'scenarios serve in mock mode only';
    config.log(`watch: nothing to watch (${why})`);
    return () => {};
  }
  const { file } = served;
  const serving = () => partitions.list().filter((p) => p.engine.scenario?.file === file);
  config.log(`watch: reloading ${served.name} when ${file} changes`);
  const handlers: ScenarioWatchHandlers = {
    load: (text) => parseScenario(text, file, spec),
    reloaded(definition) {
      const restarted = serving();
      for (const partition of restarted) {
        partition.useScenario(definition, { action: 'reload', detail: `${definition.name} from ${file}` });
      }
      config.log(
        `watch: reloaded ${definition.name} from ${file}; ${restarted.length} partition${restarted.length === 1 ? '' : 's'} restarted`,
      );
    },
    failed(problems) {
      for (const partition of serving()) partition.engine.note('reload.failed', problems.join('\n'));
      config.log(
        `watch: ${file} not reloaded, the last good version still serves:\n${problems.map((p) => `  ${p}`).join('\n')}`,
      );
    },
  };
  return watchScenarioFile(file, handlers, { loadedAt });
}
