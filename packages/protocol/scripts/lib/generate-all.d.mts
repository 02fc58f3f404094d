/** Directories whose every file is generated. */
export const GENERATED_DIRS: readonly string[];
/** Every generated file, computed in memory: path relative to the package root -> content. */
export function generateAll(packageRoot: string): Promise<Map<string, string>>;
/** The header line every generated file starts with. */
export function header(source: string): string;
