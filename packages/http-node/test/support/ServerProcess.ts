/**
 * The real `formwright serve` (src/bin.ts) as a child process, for tests that must see what a
 * user would: the process dying, its memory, a restart on the same data. The machinery is
 * `ServerProcess` of @formwright/testing, shared with `npm run fuzz` (scripts/fuzz.ts); this only
 * names the entry point and the test key.
 */
import { ServerProcess } from "@formwright/testing"
import { fileURLToPath } from "node:url"

export type ServerProcess = ServerProcess.ServerProcess
export type HealthStats = ServerProcess.HealthStats

/** The CLI this package ships. */
export const bin = fileURLToPath(new URL("../../src/bin.ts", import.meta.url))

/** The key `call` sends (user `alice`). */
export const key = ServerProcess.defaultKey

/** Starts `node src/bin.ts serve` on loopback, a free port and a temporary data directory (or `dataDir`). */
export const start = (options: Omit<ServerProcess.Options, "entry"> = {}): Promise<ServerProcess.ServerProcess> =>
  ServerProcess.start({ entry: bin, ...options })

export const { probeHealth, formatHealth, formatMiB, percentile } = ServerProcess
