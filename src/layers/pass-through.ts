/**
 * The modes that involve a real server or its recording: proxy (forward), record (forward and write down),
 * replay (answer from the recording; a miss is an error) and hybrid replay (answer from the recording,
 * forward and record what is missing). One function per request decides, and says which layer answered.
 */
import { wallClock } from '../state/clock.js';
import type { Answer, Exchange } from '../exchange/exchange.js';
import type { Recorder } from '../recordings/recorder.js';
import type { Replayer, Route } from '../recordings/replay.js';
import type { Layer, LayerName } from '../exchange/layer.js';
import { forward, releaseUpstream, type Upstream } from './upstream.js';

/** `cursors`: the partition's replay positions. */
export type PassThrough = ((
  exchange: Exchange,
  route: Route,
  cursors: Map<string, number>,
) => Promise<Answer & { layer: LayerName }>) & {
  /** Lets go of the recording file and of the connections kept open to the upstream, once nothing more is sent. */
  close(): void;
};

export function createPassThrough(options: {
  upstream?: Upstream;
  recorder?: Recorder;
  replayer?: Replayer;
}): PassThrough {
  const { upstream, recorder, replayer } = options;
  const through = async (
    exchange: Exchange,
    route: Route,
    cursors: Map<string, number>,
  ): Promise<Answer & { layer: LayerName }> => {
    const replayed = replayer?.answer(exchange, route, cursors);
    if (replayed) return { ...replayed, layer: 'replay' };
    if (!upstream) throw (replayer as Replayer).miss(exchange, route);
    const started = wallClock();
    // `forward` makes a new answer each time, so it is marked where it stands: a copy spread with the layer
    // took a slow path on every forwarded request, and the pipeline's reads of it missed (2026-11-28).
    const answer = await forward(exchange, upstream);
    if (!recorder) return marked(answer, 'upstream');
    // A whole answer waits for its interaction to be in the file (written with others of the same turn).
    const recorded = recorder.capture(exchange, answer, route, started);
    return marked(recorded instanceof Promise ? await recorded : recorded, 'record');
  };
  return Object.assign(through, {
    close: () => {
      recorder?.close();
      if (upstream) releaseUpstream(upstream);
    },
  });
}

function marked(answer: Answer, layer: LayerName): Answer & { layer: LayerName } {
  answer.layer = layer;
  return answer as Answer & { layer: LayerName };
}

export function passThroughLayer(through: PassThrough): Layer {
  return {
    name: 'upstream',
    honorsPreferences: true,
    respond: (request) =>
      through(
        request.exchange,
        { operationId: request.operation.operationId, pathParams: request.pathParams },
        request.partition.replayCursors,
      ),
  };
}
