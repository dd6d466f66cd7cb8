/** Types of scripts/prune-declarations.mjs, for the tests that import it. */
export declare function entryDeclarations(root: string): string[];
export declare function reachableDeclarations(entries: string[]): { files: Set<string>; missing: string[] };
