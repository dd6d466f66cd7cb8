/**
 * The scenario format's own part: what a scenario is beyond its resources (name, seed, start, project,
 * rules) and the definitions every kind may refer to. The kinds add theirs (src/kinds/<kind>/format.ts).
 */
export const head = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://session-agent-sim.invalid/scenario.schema.json',
  title: 'session-agent-sim scenario',
  description:
    'A world for the simulator: its resources at the start and how they change over virtual time and requests. Add `# yaml-language-server: $schema=./scenario.schema.json` at the top of a scenario file for editor checks.',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
};

/** The properties that come before the kinds' sections. */
export const properties = {
  name: {
    type: 'string',
    pattern: '^[a-z0-9][a-z0-9-]*$',
    description: 'Selects the scenario (`--scenario NAME`); the file is scenarios/NAME.yaml.',
  },
  description: {
    type: 'string',
  },
  seed: {
    type: 'string',
    minLength: 1,
    description: 'Seed of generated ids and data; defaults to the name.',
  },
  start: {
    type: 'string',
    format: 'date-time',
    description: 'Virtual time at the start (default 2026-11-22T09:00:00Z).',
  },
  project: {
    type: 'object',
    additionalProperties: false,
    required: ['directory'],
    description:
      "The project this scenario's partition serves, as if the simulator had been started with --project-dir (and that id): the `location` of location-scoped answers and of events, the project of POST /experimental/project/{projectID}/copy, the default cwd of shells and PTYs, GET /api/fs/list, forms per location, the projectID of session records. Default: the simulator's own project.",
    properties: {
      directory: {
        type: 'string',
        pattern: '^/',
        description: 'Absolute path of the project directory.',
      },
      id: {
        type: 'string',
        minLength: 1,
        description:
          'The project id, as `location.project.id` shows it (default: derived from the directory, as for --project-dir).',
      },
    },
  },
};

/** The last property, after the kinds' sections. */
export const rules = {
  type: 'array',
  items: {
    $ref: '#/$defs/rule',
  },
  description:
    'Scripted answers that take precedence over everything else: the first rule whose `when` matches answers.',
};

/** Shared definitions; `rule.properties.when.properties.state.properties` is filled in from the stateful kinds. */
export const defs = {
  duration: {
    description: 'Virtual time from the start: `250ms`, `30s`, `5m`, `1h`, `1m30s`, or milliseconds as a number.',
    oneOf: [
      {
        type: 'string',
        pattern: '^(\\d+(\\.\\d+)?(ms|s|m|h))+$',
      },
      {
        type: 'number',
        minimum: 0,
      },
    ],
  },
  instant: {
    description:
      'A point in virtual time: a duration from the start (`250ms`, `30s`, `1m30s`, or milliseconds as a number), or an ISO 8601 date-time (`2026-11-22T08:59:30.125Z`), which may be before the start.',
    anyOf: [
      {
        $ref: '#/$defs/duration',
      },
      {
        type: 'string',
        format: 'date-time',
      },
    ],
  },
  window: {
    type: 'object',
    additionalProperties: false,
    required: ['from'],
    properties: {
      from: {
        $ref: '#/$defs/duration',
      },
      until: {
        $ref: '#/$defs/duration',
        description: 'Open-ended when omitted.',
      },
    },
  },
  rule: {
    type: 'object',
    additionalProperties: false,
    description:
      "One scripted answer: written in a scenario's rules, or added at run time (POST /__sim/rules) in the same shape.",
    required: ['when', 'then'],
    properties: {
      when: {
        type: 'object',
        additionalProperties: false,
        description:
          'Which requests the rule answers: an `operation` of the spec, or a `method` and a `path` (a template) or `pathPattern` (a regular expression), which may lie outside the spec. Every condition given must hold.',
        properties: {
          operation: {
            type: 'string',
            description: 'An operationId of the spec, e.g. v2.session.compact. Instead of method and path.',
          },
          method: {
            enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
            description:
              'With path or pathPattern: the request method (a HEAD request matches GET, as routing does). Absent: any method.',
          },
          path: {
            type: 'string',
            pattern: '^/',
            description:
              'A path template, e.g. /api/gateway/{name}: literal segments match as sent, a {name} segment matches any one segment and is a parameter for params. A method and template naming an operation of the spec answer as that operation does; any other path needs outsideSpec: true.',
          },
          pathPattern: {
            type: 'string',
            minLength: 1,
            description:
              'A JavaScript regular expression matched against the path as sent (percent-encoded, without the query), e.g. ^/api/gateway/; named groups (?<name>…) are parameters for params. Matched in time linear in the path: lookarounds and backreferences are refused, as is a pattern over 1,000 characters. It may match paths outside the spec, so it needs outsideSpec: true.',
          },
          params: {
            type: 'object',
            additionalProperties: {
              type: 'string',
            },
            description:
              "Path parameters that must be equal: the operation's, or those the path template or pattern names.",
          },
          query: {
            type: 'object',
            description: 'Query values that must be equal (location as an object).',
          },
          body: {
            type: 'object',
            description: 'Body fields that must be equal (a subset match).',
          },
          after: {
            $ref: '#/$defs/duration',
            description:
              'Only from this virtual time on (in a scenario: from its start; in a rule added at run time: from when it was added).',
          },
          before: {
            $ref: '#/$defs/duration',
            description: 'Only before this virtual time (counted as for after).',
          },
          state: {
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            description:
              'Resource states that must hold now (every one given). States are the ones each kind has, so a typo is an error, not a new state.',
          },
        },
      },
      then: {
        type: 'object',
        additionalProperties: false,
        description:
          'What the rule does: answer (`status` with `body` or `text`, and `headers`; or a declared `error`), `drop` the connection, or shape an event stream (`stream`); an answer or a drop after an optional `delay`. Without outsideSpec the answer must be one the operation declares.',
        properties: {
          status: {
            type: 'integer',
            minimum: 100,
            maximum: 599,
            description: 'The status to answer: one the operation declares, or any with outsideSpec: true.',
          },
          headers: {
            type: 'object',
            additionalProperties: {
              type: 'string',
            },
            description:
              'Headers to send with the answer, e.g. retry-after or content-type. The simulator sets content-length, transfer-encoding, connection and its own x-sim-… headers itself.',
          },
          body: {
            description:
              'A JSON body to answer; checked against the spec for that status (unless outsideSpec). Sent as application/json unless headers name another content-type.',
          },
          text: {
            type: 'string',
            description:
              'A text body to answer as is, instead of body: sent with the content-type of headers, else text/plain; charset=utf-8.',
          },
          error: {
            type: 'object',
            description:
              "A declared error body of the operation (`_tag` …, or ProjectCopyError's {name, data}); its status follows from the tag.",
          },
          drop: {
            type: 'boolean',
            description:
              '`true`: destroy the connection without answering, as a crashed server would (the client sees a reset, not a status). Nothing is answered, so status, body and error cannot go with it; delay can (a server that hangs, then dies).',
          },
          delay: {
            $ref: '#/$defs/duration',
            description:
              'Wall-clock wait before answering, or before dropping the connection (spinners, timeouts in the UI). Not virtual time: the clock does not move.',
          },
          stream: {
            $ref: '#/$defs/streamFault',
          },
        },
      },
      times: {
        type: 'integer',
        minimum: 1,
        description: 'Answer this many times, then step aside (default: always).',
      },
      outsideSpec: {
        type: 'boolean',
        description:
          '`true`: the rule may leave the spec: match a path it does not have, answer a status, headers or body it does not declare. Its exchanges are marked outside the spec in the journal, the inspector and coverage, and their answers are not checked against the spec.',
      },
    },
  },
  streamFault: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    description:
      "Faults of an event stream (GET /api/event, a session's /event, or a stream an upstream sends): the stream the simulator, the upstream or the recording would send goes through them. Frames are the events (data: frames); heartbeat comments go too but are not counted.",
    properties: {
      afterFrames: {
        type: 'integer',
        minimum: 0,
        description: 'Events sent whole before the fault (default 0).',
      },
      fault: {
        enum: ['stall', 'cut', 'drop'],
        description:
          'stall: stop sending, keep the connection open; cut: send half of the next event, then close the connection mid-frame; drop: close the connection at once. A client sees cut and drop as a failed stream (the official client reconnects), a stall as silence.',
      },
      latency: {
        $ref: '#/$defs/duration',
        description: 'Wall-clock wait before each frame goes out (a burst takes its frames times this).',
      },
      jitter: {
        $ref: '#/$defs/duration',
        description: 'Up to this much more wait per frame, drawn from a seeded random sequence (the same each run).',
      },
      retry: {
        $ref: '#/$defs/duration',
        description:
          'Sends an SSE `retry:` field first: how long the client waits before reconnecting (the official client starts from it, doubling per attempt).',
      },
    },
  },
};
