/** The file kind's shapes: the project's file tree, each directory with its direct children. */

/**
 * A listed directory's direct children, as `GET /api/fs/list` answers them, by directory (relative to the
 * project: '' for its root, else ending in '/'). A plain object, so a loaded scenario stays plain JSON.
 */
export type FileTree = Readonly<Record<string, ReadonlyArray<{ path: string; type: 'file' | 'directory' }>>>;

declare module '../../scenarios/definition.js' {
  interface ScenarioSections {
    readonly files: FileTree;
  }
}
