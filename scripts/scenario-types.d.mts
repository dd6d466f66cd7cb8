/** Types of scripts/scenario-types.mjs, for the tests that import it. */
export declare const SCHEMA_FILE: string;
export declare const TYPES_FILE: string;
export declare function typeName(def: string): string;
export declare function emitTypes(schema: object, options?: { source?: string }): string;
export declare function generate(schemaFile?: string, typesFile?: string): Promise<string>;
export declare function sectionName(kind: string): string;
export declare function sectionFile(kind: string): string;
export declare function emitSection(kind: { name: string; format?: { properties: object } }, schema: object): string;
export declare function generateSections(
  kinds: ReadonlyArray<{ name: string; format?: { properties: object } }>,
  schemaFile?: string,
): Promise<Map<string, string>>;
