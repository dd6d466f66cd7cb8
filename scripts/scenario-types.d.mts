/** Types of scripts/scenario-types.mjs, for the tests that import it. */
export declare const SCHEMA_FILE: string;
export declare const TYPES_FILE: string;
export declare function typeName(def: string): string;
export declare function emitTypes(schema: object, options?: { source?: string }): string;
export declare function generate(schemaFile?: string, typesFile?: string): Promise<string>;
