/**
 * Starts the simulator on a socket: for the CLI, and for tests that want a real port in-process.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type SimApp } from '../app.js';
import type { SimOptions } from '../config.js';
import { writeCoverageFile } from '../control/coverage-file.js';
import { handleUpgrades } from './upgrade-tunnel.js';

export interface RunningSimulator {
  url: string;
  port: number;
  app: SimApp;
  server: Server;
  close(): Promise<void>;
}

export async function startServer(options: SimOptions = {}): Promise<RunningSimulator> {
  const app = await createApp(options);
  const { host, port } = app.sim.config;
  const server = createServer(app);
  const closeTunnels = handleUpgrades(server, app.sim.config.upstream === undefined ? undefined : new URL(app.sim.config.upstream));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${actual}`,
    port: actual,
    app,
    server,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        closeTunnels();
      });
      const { config, partitions, spec } = app.sim;
      if (config.coverage !== undefined) {
        const report = writeCoverageFile(config.coverage, partitions, spec);
        config.log(`coverage: ${report.summary.line} (${config.coverage})`);
      }
      partitions.dispose();
    },
  };
}
