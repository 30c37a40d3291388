#!/usr/bin/env node
/**
 * The `formwright` command (cli/Main.ts): `serve` (the default), `keys`, `forms`, `fill`, `convert`,
 * `preview`; `formwright --help` lists them. The commands load what they need when they run, so
 * `--help` does not wait for the server's modules.
 */
import { enableCompileCache } from "node:module"

// V8 keeps the code it compiled for the modules between runs (in the system's temp directory), so
// a command starts sooner from the second run on. Best effort: where the cache cannot be
// written, nothing else changes.
enableCompileCache()

await import("./cli/Start.ts")
