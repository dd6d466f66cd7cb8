/** The file kind's shapes: the project's file tree, each directory with its direct children, and file contents. */

/**
 * A listed directory's direct children, as `GET /api/fs/list` answers them, by directory (relative to the
 * project: '' for its root, else ending in '/'). A plain object, so a loaded scenario stays plain JSON.
 */
export type FileTree = Readonly<Record<string, ReadonlyArray<{ path: string; type: 'file' | 'directory' }>>>;

/** A file's bytes as the scenario writes them: text, or base64 for a binary file. */
export interface FileContent {
  readonly data: string;
  readonly encoding: 'utf8' | 'base64';
}

/** What the scenario says of its files' bytes; the tree itself is the `files` section other kinds read. */
export interface FileContents {
  /** Contents the scenario gives, by path relative to the project; other files read as generated from their names. */
  readonly contents: Readonly<Record<string, FileContent>>;
  /** Sizes in bytes the scenario gives files without content (a large file): generated to that length. */
  readonly sizes: Readonly<Record<string, number>>;
}

export type FilesDefinition = FileContents & { readonly tree: FileTree };

declare module '../../state/scenario.js' {
  interface ScenarioSections {
    readonly files: FileTree;
    readonly fileContents: FileContents;
  }
}
