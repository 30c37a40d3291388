/**
 * What the system test and the scaling benchmark send: small forms of the corpus (../shared/corpus,
 * read in place), sessions over them, conversions of small flat PDFs, and a client that retries a
 * request on another API server until one acknowledges it (a request whose server died, or that
 * was refused with 502/503, was not acknowledged).
 */
import type { ServerProcess } from "@formwright/testing"
import * as Fs from "node:fs"
import * as Path from "node:path"

const corpus = Path.resolve(import.meta.dirname, "../../../shared/corpus")

interface ManifestFile {
  readonly name: string
  readonly category: string
  readonly bytes: number
  readonly pages: number
  readonly encrypted: boolean
  readonly xfa: boolean
  readonly n_fields: number
}

const manifest = (): ReadonlyArray<ManifestFile> => {
  const path = Path.join(corpus, "manifest.json")
  if (!Fs.existsSync(path)) throw new Error(`the corpus is missing: ${path}`)
  return (JSON.parse(Fs.readFileSync(path, "utf8")) as { files: Array<ManifestFile> }).files
}

const read = (file: ManifestFile) => new Uint8Array(Fs.readFileSync(Path.join(corpus, "pdfs", file.name)))

/** The `count` smallest one- or two-page fillable forms of the corpus (no encryption, no XFA). */
export const smallForms = (count: number): ReadonlyArray<Uint8Array> =>
  manifest()
    .filter((f) => f.category === "form" && !f.encrypted && !f.xfa && f.n_fields > 0 && f.pages <= 2)
    .sort((a, b) => a.bytes - b.bytes)
    .slice(0, count)
    .map(read)

/** The `count` smallest one-page PDFs of the corpus without fields, to convert. */
export const smallFlatPdfs = (count: number): ReadonlyArray<Uint8Array> =>
  manifest()
    .filter((f) => f.category === "flat" && !f.encrypted && f.n_fields === 0 && f.pages === 1)
    .sort((a, b) => a.bytes - b.bytes)
    .slice(0, count)
    .map(read)

export interface Answer {
  readonly status: number
  readonly body: any
  /** The server that answered. */
  readonly via: number
}

/**
 * Sends the request to `servers[first]`, then to the others in turn, until one answers with a
 * status other than 502/503 (or the connection fails): what the load balancer of a deployment does.
 */
export const send = async (
  servers: ReadonlyArray<ServerProcess.ServerProcess>,
  first: number,
  path: string,
  init: () => RequestInit = () => ({}),
  deadlineMs = 120_000
): Promise<Answer> => {
  const deadline = Date.now() + deadlineMs
  let lastError = ""
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    const via = (first + attempt) % servers.length
    const server = servers[via]!
    if (!server.alive()) continue
    try {
      const response = await server.call(path, { ...init(), signal: AbortSignal.timeout(30_000) })
      const text = await response.text()
      if (response.status === 502 || response.status === 503) {
        lastError = `${response.status} ${text}`
        await new Promise((r) => setTimeout(r, 250))
        continue
      }
      return { status: response.status, body: text === "" ? undefined : JSON.parse(text), via }
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  throw new Error(`${path}: no server acknowledged it within ${deadlineMs} ms (last: ${lastError})`)
}

/** Runs `task` over `items`, `concurrency` at a time. */
export const pool = async <A, B>(items: ReadonlyArray<A>, concurrency: number, task: (item: A, index: number) => Promise<B>) => {
  const results: Array<B> = new Array(items.length)
  let next = 0
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index]!, index)
    }
  }))
  return results
}
