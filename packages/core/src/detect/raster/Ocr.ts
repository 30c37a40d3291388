/**
 * Reads the words of a page picture offline with Tesseract (Debian's `tesseract-ocr`, run as a
 * child process with its English data). Chosen over tesseract.js 7 by measurement: on four form
 * pages rendered at about 140 dpi both read about as many words (105-656 a page), and the native
 * engine took 1.1-2.2 times less time (1.6-6.1 s against 2.8-13.5 s a page on a loaded 2-core
 * machine). Running in its own process also keeps its memory out of the PDF worker's. The picture
 * is piped in as a PGM, so no temporary file is written, and the words come back as TSV with
 * their boxes in pixels.
 */
import { spawn } from "node:child_process"
import { Effect } from "effect"
import type { Bitmap } from "./Bitmap.ts"

/** A word Tesseract read: its text, its box in pixels (`[x1, x2) x [y1, y2)`, y down), and its line's box. */
export interface Word {
  readonly text: string
  readonly x1: number
  readonly y1: number
  readonly x2: number
  readonly y2: number
  /** Tesseract's confidence, 0-100. */
  readonly confidence: number
  /** The box of the line the word belongs to: its height is the text's size. */
  readonly lineTop: number
  readonly lineBottom: number
}

/** Why the page's words could not be read. */
export class OcrUnavailable extends Error {
  readonly _tag = "OcrUnavailable"
}

export interface OcrOptions {
  /** Pixels per inch of the picture: Tesseract sizes its text model by it. */
  readonly dpi: number
  /** The Tesseract binary (default `tesseract` on the PATH). */
  readonly binary?: string | undefined
  /** Milliseconds before the reading is abandoned. */
  readonly timeoutMs?: number | undefined
  /** Tesseract language codes, joined with `+` (default English). */
  readonly languages?: string | undefined
}

/** Words below this confidence are noise (a line read as "|", a speck as "."). */
const MIN_CONFIDENCE = 30

const pgm = (grey: Bitmap): Buffer => {
  const header = Buffer.from(`P5\n${grey.width} ${grey.height}\n255\n`, "latin1")
  return Buffer.concat([header, Buffer.from(grey.data.buffer, grey.data.byteOffset, grey.data.byteLength)])
}

/** Words of Tesseract's TSV output (level 5 rows), with their line's box (level 4 rows). */
export const parseTsv = (tsv: string): Array<Word> => {
  const words: Array<Word> = []
  let lineTop = 0
  let lineBottom = 0
  for (const row of tsv.split("\n")) {
    const cols = row.split("\t")
    if (cols.length < 12) continue
    const level = Number(cols[0])
    const [left, top, width, height, confidence] = [Number(cols[6]), Number(cols[7]), Number(cols[8]), Number(cols[9]), Number(cols[10])]
    if (!Number.isFinite(level) || ![left, top, width, height].every(Number.isFinite)) continue
    if (level === 4) {
      lineTop = top
      lineBottom = top + height
    } else if (level === 5) {
      const text = cols.slice(11).join("\t").trim()
      if (text === "" || !(confidence >= MIN_CONFIDENCE)) continue
      words.push({ text, x1: left, y1: top, x2: left + width, y2: top + height, confidence, lineTop, lineBottom })
    }
  }
  return words
}

/**
 * The words of `grey`. Page segmentation mode 11 ("sparse text"): a form is islands of labels
 * between lines and boxes, not running paragraphs, and the mode that finds as much text as
 * possible in no particular order read more labels than the default page layout analysis.
 */
export const read = (grey: Bitmap, options: OcrOptions): Effect.Effect<Array<Word>, OcrUnavailable> =>
  Effect.callback<Array<Word>, OcrUnavailable>((resume, signal) => {
    const args = ["stdin", "stdout", "-l", options.languages ?? "eng", "--psm", "11", "--dpi", String(Math.round(options.dpi)), "tsv"]
    const child = spawn(options.binary ?? "tesseract", args, { stdio: ["pipe", "pipe", "pipe"], signal, env: { ...process.env, OMP_THREAD_LIMIT: "1" } })
    const out: Array<Buffer> = []
    const err: Array<Buffer> = []
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000)
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk))
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < 64) err.push(chunk)
    })
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      resume(Effect.fail(new OcrUnavailable(error.code === "ENOENT" ? "tesseract is not installed (apt-get install tesseract-ocr)" : error.message)))
    })
    child.on("close", (code, killedBy) => {
      clearTimeout(timer)
      if (code === 0) resume(Effect.succeed(parseTsv(Buffer.concat(out).toString("utf8"))))
      else resume(Effect.fail(new OcrUnavailable(`tesseract ${killedBy ? `was stopped (${killedBy})` : `exited ${code}`}: ${Buffer.concat(err).toString("utf8").slice(0, 200)}`)))
    })
    // A closed pipe (tesseract gone) surfaces through 'close'; nothing more to do here.
    child.stdin.on("error", () => {})
    child.stdin.end(pgm(grey))
  })
