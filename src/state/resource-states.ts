/**
 * The states of every stateful resource kind and the transitions between them, declared once. The world's
 * types, the scenario format's `state` conditions (scenarios/scenario.schema.json, held to this by a test),
 * rule checks and the coverage report all read them from here, so a state cannot exist in one place only.
 */
export const RESOURCE_STATES = {
  session: ['scheduled', 'idle', 'busy'],
  form: ['scheduled', 'pending', 'answered', 'cancelled'],
  shell: ['scheduled', 'running', 'exited', 'timeout'],
  attempt: ['pending', 'complete', 'failed', 'expired'],
} as const;

export type StatefulKind = keyof typeof RESOURCE_STATES;
export type ResourceState<K extends StatefulKind> = (typeof RESOURCE_STATES)[K][number];

export const STATEFUL_KINDS = Object.keys(RESOURCE_STATES) as StatefulKind[];

/** Every transition a kind can make, `from → to`; coverage counts which of them a run made happen. */
export const TRANSITIONS: {
  readonly [K in StatefulKind]: ReadonlyArray<readonly [ResourceState<K>, ResourceState<K>]>;
} = {
  session: [
    ['scheduled', 'idle'],
    ['idle', 'busy'],
    ['busy', 'idle'],
  ],
  form: [
    ['scheduled', 'pending'],
    ['pending', 'answered'],
    ['pending', 'cancelled'],
  ],
  shell: [
    ['scheduled', 'running'],
    ['running', 'exited'],
    ['running', 'timeout'],
  ],
  attempt: [
    ['pending', 'complete'],
    ['pending', 'failed'],
    ['pending', 'expired'],
  ],
};

export function isResourceState<K extends StatefulKind>(kind: K, value: unknown): value is ResourceState<K> {
  return (RESOURCE_STATES[kind] as readonly unknown[]).includes(value);
}
