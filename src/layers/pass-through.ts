/**
 * The modes that involve a real server or its recording: proxy (forward), record (forward and write down),
 * replay (answer from the recording; a miss is an error) and hybrid replay (answer from the recording,
 * forward and record what is missing). One function per request decides, and says which layer answered.
 */
import { wallClock } from '../state/clock.js';
import type { Answer, Exchange } from '../exchange/exchange.js';
import type { Recorder } from '../recordings/recorder.js';
import type { Replayer, Route } from '../recordings/replay.js';
import type { Layer } from './layer.js';
import type { AnsweredBy } from '../exchange/answered-by.js';
import { forward, releaseUpstream, type Upstream } from './upstream.js';

/** `cursors`: the partition's replay positions. */
export type PassThrough = ((
  exchange: Exchange,
  route: Route,
  cursors: Map<string, number>,
) => Promise<Answer & { answeredBy: AnsweredBy }>) & {
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
  ): Promise<Answer & { answeredBy: AnsweredBy }> => {
    const replayed = replayer?.answer(exchange, route, cursors);
    if (replayed) return { ...replayed, answeredBy: 'replay' };
    if (!upstream) throw (replayer as Replayer).miss(exchange, route);
    const started = wallClock();
    // `forward` makes a new answer each time, so it is marked where it stands: a copy spread with the field
    // takes V8's slow path on every forwarded request, and the pipeline's reads of it miss.
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

function marked(answer: Answer, by: AnsweredBy): Answer & { answeredBy: AnsweredBy } {
  answer.answeredBy = by;
  return answer as Answer & { answeredBy: AnsweredBy };
}

export function passThroughLayer(through: PassThrough): Layer {
  return {
    name: 'pass-through',
    answersAs: 'upstream',
    honorsPreferences: true,
    respond: (request) =>
      through(
        request.exchange,
        { operationId: request.operation.operationId, pathParams: request.pathParams },
        request.partition.replayCursors,
      ),
  };
}
