/**
 * vitest global setup: when a PostgreSQL test file of this run started the local server (see
 * PgTestServer.ts), stop it once every file has finished. A server that was already running
 * (started by `.ci/run` or by hand) is left alone.
 */
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import type { TestProject } from "vitest/node"

export default function setup(project: TestProject) {
  const marker = Path.join(Os.tmpdir(), `formwright-pg-started-${process.pid}-${Date.now()}`)
  project.provide("formwrightPgStartedMarker", marker)
  return () => {
    if (!Fs.existsSync(marker)) return
    const script = Fs.readFileSync(marker, "utf8")
    Fs.rmSync(marker, { force: true })
    spawnSync("bash", [script, "stop"], { stdio: "inherit" })
  }
}
