/**
 * Builds the pass-through of the configured mode: proxy (upstream), record (upstream + recording), replay
 * (recording), hybrid replay (recording + upstream, recording what is missing). Nothing for the mock.
 */
import { existsSync } from 'node:fs';
import { type SimConfig } from '../config/config.js';
import type { SpecIndex } from '../openapi/openapi.js';
import { createPassThrough, type PassThrough } from './pass-through.js';
import { RECORDING_FORMAT, type RecordingHeader } from '../recordings/format.js';
import { createRecorder } from '../recordings/recorder.js';
import { mergeRedaction } from '../recordings/redact.js';
import { createReplayer } from '../recordings/replay.js';
import type { SecretValues } from '../recordings/secret-values.js';
import { withoutCredentials } from '../recordings/redact.js';
import { SimConfigError } from '../errors/sim-errors.js';

export function createModePassThrough(
  config: SimConfig,
  spec: SpecIndex,
  secrets?: SecretValues,
): PassThrough | undefined {
  if (config.upstream === undefined && config.replay === undefined) return undefined;
  const rules = mergeRedaction(config.redact);
  const upstream =
    config.upstream === undefined ? undefined : { url: new URL(config.upstream), timeoutMs: config.upstreamTimeout };
  if (config.replay !== undefined && !existsSync(config.replay) && !upstream) {
    throw new SimConfigError(`no recording at ${config.replay} (replay --upstream URL starts one)`);
  }
  const replayer =
    config.replay === undefined
      ? undefined
      : replayerOf(config.replay, () =>
          createReplayer(config.replay as string, rules, config.ignore, config.replayExhausted),
        );
  // Hybrid replay records what it had to forward into the recording it replays.
  const recordTo = config.record ?? (replayer && upstream ? config.replay : undefined);
  const header: RecordingHeader = {
    format: RECORDING_FORMAT,
    specHash: spec.hash,
    upstream: config.upstream === undefined ? undefined : withoutCredentials(config.upstream),
  };
  const recorder =
    recordTo === undefined
      ? undefined
      : createRecorder(recordTo, header, rules, {
          recorded: recordTo === config.replay ? replayer?.size : undefined,
          log: config.log,
          scrub: secrets?.scrub,
        });
  return createPassThrough({ upstream, recorder, replayer });
}

/** A recording that cannot be read (broken YAML mid-file, a directory, unreadable) refuses the start as an option would. */
function replayerOf<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    // What reading the file says (a code from the file system, a document that does not parse); anything
    // else is the simulator's own failure, and stays one.
    const code = (error as NodeJS.ErrnoException).code;
    const message = error instanceof Error ? error.message : '';
    if (error instanceof SimConfigError || (code === undefined && !message.startsWith('recording document ')))
      throw error;
    const why = code ?? message.split('\n')[0];
    throw Object.assign(
      new SimConfigError(
        `cannot replay ${file}: ${why}`,
        'Give a recording written by record (or replay --upstream), or repair the document the message names',
      ),
      { cause: error },
    );
  }
}
