/**
 * The states of every stateful resource kind, as types. Each kind declares its own in its folder
 * (src/kinds/<kind>/types.ts) by adding a field here; the registry holds them at run time, and the scenario
 * format's `state` conditions, rule checks and the coverage report read them from there, so a state cannot
 * exist in one place only.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by each stateful kind (declaration merging)
export interface KindStates {}

export type StatefulKind = keyof KindStates;
export type ResourceState<K extends StatefulKind> = KindStates[K];
