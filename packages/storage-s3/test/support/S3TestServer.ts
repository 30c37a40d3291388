/**
 * The S3 server the integration tests run against, found or started once per test run:
 * 1. `FORMWRIGHT_TEST_S3_ENDPOINT` (what `.ci/run` sets after `scripts/s3-server.sh start`), with
 *    `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` (default testkey/testsecret);
 * 2. else, on a machine with Ceph's radosgw installed, `scripts/s3-server.sh start` (a local RADOS
 *    Gateway on 127.0.0.1:7480), stopped again by the global teardown if this run started it;
 * 3. else none: the S3 tests are skipped with a message saying why. `FORMWRIGHT_TEST_S3_REQUIRED=1`
 *    (CI) turns that into a failure.
 */
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { inject } from "vitest"

export interface S3Server {
  readonly endpoint: string
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly region: string
}

export const noServerMessage = "S3 tests skipped: no radosgw on this machine (apt-get install radosgw ceph-mon ceph-osd)"

const repoRoot = Path.resolve(import.meta.dirname, "../../../..")
const script = Path.join(repoRoot, "scripts/s3-server.sh")
const required = process.env.FORMWRIGHT_TEST_S3_REQUIRED === "1"

const fromEnvironment = (endpoint: string): S3Server => ({
  endpoint,
  accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? "testkey",
  secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? "testsecret",
  region: process.env.AWS_REGION ?? "us-east-1"
})

const hasRadosgw = () => spawnSync("sh", ["-c", "command -v radosgw"], { stdio: "ignore" }).status === 0

const startLocal = (): S3Server | string => {
  const wasRunning = spawnSync("bash", [script, "status"], { encoding: "utf8" })
  if (wasRunning.status === 0) return fromEnvironment(wasRunning.stdout.trim())
  const started = spawnSync("bash", [script, "start"], { encoding: "utf8", timeout: 300_000 })
  if (started.status !== 0) return `S3 tests skipped: scripts/s3-server.sh start failed:\n${started.stderr}`
  // Tell the global teardown that this run started the server, so it stops it again.
  const marker = inject("formwrightS3StartedMarker")
  if (marker) Fs.writeFileSync(marker, script)
  const endpoint = /FORMWRIGHT_TEST_S3_ENDPOINT=(\S+)/.exec(started.stdout)?.[1]
  return endpoint === undefined ? `S3 tests skipped: scripts/s3-server.sh printed no endpoint` : fromEnvironment(endpoint)
}

let resolved: S3Server | string | undefined

/** The server, or why there is none (the S3 tests then skip with that message). */
export const server = (): S3Server | string => {
  if (resolved !== undefined) return resolved
  const endpoint = process.env.FORMWRIGHT_TEST_S3_ENDPOINT
  resolved = endpoint !== undefined && endpoint !== ""
    ? fromEnvironment(endpoint)
    : hasRadosgw()
    ? startLocal()
    : noServerMessage
  if (typeof resolved === "string") {
    if (required) throw new Error(`FORMWRIGHT_TEST_S3_REQUIRED=1 but ${resolved}`)
    console.warn(resolved)
  }
  return resolved
}

declare module "vitest" {
  export interface ProvidedContext {
    /** A file the S3 tests write when they started the local server, for the teardown to stop it. */
    formwrightS3StartedMarker: string
  }
}
