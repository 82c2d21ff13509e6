// Types of build-js.mjs for the TypeScript that imports it (the benchmark, the tests).
export declare const RUNTIME_PACKAGES: string[];
export declare const SERVE_BUNDLE: string;
export declare function jsBuildIsFresh(pkgDir: string, hash?: string): boolean;
export declare function buildJs(pkgDir: string, hash?: string): Promise<void>;
export declare function serveBundleIsFresh(pkgDirs?: string[], out?: string): boolean;
export declare function buildServeBundle(pkgDirs?: string[], out?: string): Promise<void>;
export declare function ensureJsBuild(pkgDirs?: string[], log?: (line: string) => void, opts?: { bundle?: boolean }): Promise<string[]>;
export declare function withJsSpecifiers(text: string): string;
export declare function withBuildLock<T>(fn: () => Promise<T>, name?: string): Promise<T>;
