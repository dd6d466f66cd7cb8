/**
 * Every setting of the simulator in one validated shape. A bad value stops start-up with a sentence
 * naming the setting; nothing runs half-configured.
 */
import { randomBytes } from 'node:crypto';
import { DEFAULT_SPEC_PATH } from '../openapi/openapi.js';
import { AUTH_FORMS, readCredentials, type Credentials } from './credentials.js';
import { checkSimOptions, type SimOptions } from './options.js';
import { SimConfigError } from '../errors/sim-errors.js';

export { DEFAULT_SPEC_PATH };
// Declared with the option names, below the modules they name types of.
export type { SimOptions };

type Optional =
  'spec' | 'projectId' | 'scenario' | 'upstream' | 'record' | 'replay' | 'coverage' | 'adminToken' | 'logExchanges';
export type SimConfig = Required<Omit<SimOptions, Optional | 'auth'>> &
  Partial<Pick<SimOptions, Optional>> & {
    /** Read from the option: what a request must present, when auth is on. */
    auth?: Credentials;
  };

export const DEFAULTS = {
  port: 4010,
  host: '127.0.0.1',
  seed: 'session-agent-sim',
  dynamic: false,
  projectDir: '/home/dev/acme-web',
  specPath: DEFAULT_SPEC_PATH,
  realTime: false,
  simEvents: false,
  // Room for the largest thing a client sends (a long synthetic message, a pasted file) many times over,
  // while ten concurrent uploads at the limit still fit in ~100 MB.
  bodyLimit: 10 * 1024 * 1024,
  // Node's own 16 KiB is less than a browser's URL limit: a long `location[…]` query or a fat cookie would meet
  // a 431 from the simulator that the real server would have taken.
  maxHeaderSize: 64 * 1024,
  requestTimeout: 30_000,
  maxSubscribers: 500,
  maxPartitions: 256,
  upstreamTimeout: 30_000,
  redact: {},
  ignore: [] as string[],
  replayExhausted: 'last' as 'last' | 'error',
  watch: false,
} as const;

/** Addresses only this machine can reach: the control API needs no token there. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

export function resolveConfig(options: SimOptions = {}): SimConfig {
  checkSimOptions(options, 'resolveConfig');
  const { auth, ...rest } = options;
  const config: SimConfig = {
    ...DEFAULTS,
    log: (line) => process.stderr.write(`${line}\n`),
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
  };
  if (auth !== undefined) {
    const credentials = readCredentials(auth);
    if ('problem' in credentials) throw new SimConfigError(`auth ${credentials.problem}: give ${AUTH_FORMS}`);
    config.auth = credentials;
  }
  if (options.spec !== undefined && options.specPath !== undefined && options.spec !== options.specPath)
    throw new SimConfigError('give spec or specPath (its older name), not both');
  if (typeof config.spec === 'string') config.specPath = config.spec;
  else if (config.spec !== undefined && (typeof config.spec !== 'object' || config.spec === null))
    throw new SimConfigError('spec must be a path to an OpenAPI document or the parsed document');
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) {
    throw new SimConfigError(`port must be an integer from 0 to 65535, got ${String(options.port)}`);
  }
  if (typeof config.host !== 'string' || config.host === '')
    throw new SimConfigError('host must be a non-empty address');
  if (typeof config.seed !== 'string' || config.seed === '')
    throw new SimConfigError('seed must be a non-empty string');
  if (!config.projectDir.startsWith('/'))
    throw new SimConfigError(`projectDir must be an absolute path, got ${config.projectDir}`);
  if (config.projectId !== undefined && config.projectId === '')
    throw new SimConfigError('projectId must not be empty');
  if (!Number.isInteger(config.maxPartitions) || config.maxPartitions < 1)
    throw new SimConfigError(`maxPartitions must be a positive integer, got ${String(options.maxPartitions)}`);
  if (!Number.isInteger(config.bodyLimit) || config.bodyLimit <= 0)
    throw new SimConfigError('bodyLimit must be a positive integer');
  if (!Number.isInteger(config.maxHeaderSize) || config.maxHeaderSize < 1024)
    throw new SimConfigError(
      `maxHeaderSize must be an integer of at least 1024 bytes, got ${String(options.maxHeaderSize)}`,
    );
  if (!Number.isInteger(config.requestTimeout) || config.requestTimeout <= 0)
    throw new SimConfigError('requestTimeout must be a positive number of milliseconds');
  if (!Number.isInteger(config.maxSubscribers) || config.maxSubscribers < 1)
    throw new SimConfigError(`maxSubscribers must be a positive integer, got ${String(options.maxSubscribers)}`);
  if (config.adminToken !== undefined && !/^[\x21-\x7e]{16,}$/.test(config.adminToken))
    throw new SimConfigError('adminToken must be at least 16 printable characters without spaces');
  if (config.adminToken === undefined && !isLoopback(config.host))
    config.adminToken = randomBytes(24).toString('base64url');
  if (config.upstream !== undefined && !/^https?:\/\/[^/]/.test(config.upstream))
    throw new SimConfigError(`upstream must be an http(s) URL, got ${config.upstream}`);
  if (!Number.isInteger(config.upstreamTimeout) || config.upstreamTimeout <= 0)
    throw new SimConfigError('upstreamTimeout must be a positive number of milliseconds');
  if (config.replayExhausted !== 'last' && config.replayExhausted !== 'error')
    throw new SimConfigError(`exhausted must be "last" or "error", got ${String(config.replayExhausted)}`);
  if (config.logExchanges !== undefined) checkExchangeLog(config.logExchanges);
  if (config.record !== undefined && config.upstream === undefined)
    throw new SimConfigError('record needs an upstream to record from');
  if (config.record !== undefined && config.replay !== undefined)
    throw new SimConfigError('give record or replay, not both (replay with an upstream records what is missing)');
  return config;
}

function checkExchangeLog(option: unknown): void {
  const format = typeof option === 'object' && option !== null ? (option as { format?: unknown }).format : option;
  if (format !== 'lines' && format !== 'json' && typeof format !== 'function')
    throw new SimConfigError(
      `logExchanges must be "lines", "json", a function, or { format, headers }, got ${JSON.stringify(format) ?? String(format)}`,
    );
}
