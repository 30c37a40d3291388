/**
 * An upload end to end over HTTP against @cantoo/pdf-lib's parse and field listing alone (the
 * baseline), on the same files in one run, and the memory a 50 MB upload takes:
 *
 *   node bench/upload-speed.ts [runs]          (default 7; `npm run bench -- upload [runs]`)
 *
 * It starts `formwright serve` as a child process on a fresh data directory and, per form,
 * after one warm-up of each, `runs` times, alternating:
 * (a) `POST /v1/forms/upload` with the PDF as the body, timed by the client from the request
 *     to the last byte of the answer;
 * (b) in this process, pdf-lib alone: `PDFDocument.load` (with the options core uses), then
 *     `getForm().getFields()` and every field's name.
 * It prints the median and p90 of both and the ratio of the medians (the target of issue 11: at
 * most 1.5x on each form). Then the pieces of the upload's PDF work, each timed alone (in CPU
 * time) in this process the way the worker runs it: the stream check, pdf-lib's parse and field reading, the
 * page text by pdf.js (opening the document, then its text: what uploads use) and, beside it,
 * by PDFium (`bench/support/PdfiumText.ts`, the measured alternative, with the share of its
 * characters pdf.js also reads), and understanding (labels, semantics, `as_text`).
 *
 * Memory: a valid 50 MB form (a generated form plus an incompressible image drawn on a page) is
 * uploaded once, and the peak resident memory (VmHWM, plus RSS sampled every 20 ms) of the
 * server process and of its PDF workers is printed, against the target of issue 11 (at most 3x
 * the file). Linux only (it reads /proc).
 *
 * Forms: the corpus's IRS 1040 (2010), USCIS I-140, Canada B300 and the 6-page DS-11 when
 * `../shared/corpus` is beside the checkout; BENCH_PDF=path measures that PDF instead.
 */
import { ParseSpeeds, PDFDocument } from "@cantoo/pdf-lib"
import { Fixtures, ServerProcess } from "@formwright/testing"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as FormReader from "../packages/core/src/pdf/FormReader.ts"
import * as PageText from "../packages/core/src/pdf/PageText.ts"
import * as PdfJs from "../packages/core/src/pdf/PdfJs.ts"
import * as PdfLib from "../packages/core/src/pdf/PdfLib.ts"
import * as PdfLimits from "../packages/core/src/pdf/PdfLimits.ts"
import * as PdfiumText from "./support/PdfiumText.ts"
import * as IssueForms from "./support/IssueForms.ts"

const runs = IssueForms.runs(7)
const forms = () => IssueForms.forms(["IRS 1040 (2010)", "USCIS I-140", "Canada B300", "DS-11 (6 pages)"])

// pdf-lib says so on every load of a hybrid form (the I-140).
const warn = console.warn
console.warn = (...args: Array<unknown>) => {
  if (typeof args[0] === "string" && args[0].startsWith("Removing XFA form data")) return
  warn(...args)
}

const pdfLibAlone = async (bytes: Uint8Array): Promise<number> => {
  const doc = await PDFDocument.load(bytes, {
    password: "",
    ignoreEncryption: true,
    updateMetadata: false,
    throwOnInvalidObject: false,
    parseSpeed: ParseSpeeds.Fast
  })
  return doc.getForm().getFields().map((field) => field.getName()).length
}

const time = async <A>(f: () => Promise<A>): Promise<{ readonly ms: number; readonly value: A }> => {
  const t0 = performance.now()
  const value = await f()
  return { ms: performance.now() - t0, value }
}

const quantile = (xs: ReadonlyArray<number>, q: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}

const ms = (n: number) => `${n.toFixed(0)} ms`

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>, left: ReadonlyArray<number> = [0]) => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  for (const line of [header, ...rows]) {
    console.log(line.map((cell, i) => (left.includes(i) ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ").trimEnd())
  }
}

const characters = (pages: ReadonlyArray<PageText.PageText>) => {
  const counts = new Map<string, number>()
  for (const page of pages) {
    for (const run of page.runs) for (const c of run.text.replace(/\s+/g, "")) counts.set(c, (counts.get(c) ?? 0) + 1)
  }
  return counts
}

/**
 * The share of the alternative's characters (spaces aside) that pdf.js reads too: a reader that
 * is fast because it reads less, or garbles, shows here. Characters, not words: a form drawn
 * glyph by glyph (the DS-11) comes out of pdf.js one character per run, so its words are letters.
 */
const agreement = (alternative: ReadonlyArray<PageText.PageText>, pdfjs: ReadonlyArray<PageText.PageText>) => {
  const known = characters(pdfjs)
  let total = 0
  let shared = 0
  for (const [c, n] of characters(alternative)) {
    total += n
    shared += Math.min(n, known.get(c) ?? 0)
  }
  return total === 0 ? 0 : shared / total
}

/**
 * CPU time of this process so far, in ms: the pieces are timed by the work they do, which other
 * processes on a shared machine slow far less than they stretch the wall clock.
 */
const cpuMs = () => {
  const used = process.cpuUsage()
  return (used.user + used.system) / 1000
}

/** The upload's PDF work, piece by piece, as the worker's `readForm` task runs it. */
const pieces = (bytes: Uint8Array) =>
  Effect.gen(function*() {
    const step = <A, E>(effect: Effect.Effect<A, E>) =>
      Effect.suspend(() => {
        const t0 = cpuMs()
        return Effect.map(effect, (value) => ({ ms: cpuMs() - t0, value }))
      })
    const streams = yield* step(PdfLimits.checkStreams(bytes))
    const parse = yield* step(PdfLib.load(bytes))
    const fields = yield* step(Effect.sync(() => FormReader.readFields(parse.value)))
    const text = yield* step(Effect.scoped(Effect.gen(function*() {
      const t0 = cpuMs()
      const doc = yield* PdfJs.open(bytes)
      const open = cpuMs() - t0
      const pages: Array<PageText.PageText> = []
      for (let n = 1; n <= doc.numPages; n++) pages.push(yield* PageText.ofPage(doc, n))
      return { open, pages, text: cpuMs() - t0 - open }
    })))
    const pdfium = yield* step(PdfiumText.read(bytes))
    const understanding = yield* step(Effect.sync(() => {
      const understood = FormReader.understandFields(fields.value, text.value.pages)
      return FormReader.textWithMarkers(parse.value.getPageCount(), text.value.pages, understood)
    }))
    return {
      streams: streams.ms,
      parse: parse.ms,
      fields: fields.ms,
      open: text.value.open,
      text: text.value.text,
      pdfium: pdfium.ms,
      agreement: agreement(pdfium.value, text.value.pages),
      understanding: understanding.ms,
      total: streams.ms + parse.ms + fields.ms + text.ms + understanding.ms
    }
  })

// ---------------------------------------------------------------------------------------------
// Memory: process tree, peaks.

const statusKb = (pid: number, field: "VmRSS" | "VmHWM"): number => {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(Fs.readFileSync(`/proc/${pid}/status`, "utf8"))
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

const childrenOf = (pid: number): ReadonlyArray<number> => {
  const all: Array<number> = []
  const walk = (p: number) => {
    let tasks: Array<string> = []
    try {
      tasks = Fs.readdirSync(`/proc/${p}/task`)
    } catch {
      return
    }
    for (const task of tasks) {
      try {
        for (const c of Fs.readFileSync(`/proc/${p}/task/${task}/children`, "utf8").trim().split(/\s+/)) {
          if (c !== "" && !all.includes(Number(c))) {
            all.push(Number(c))
            walk(Number(c))
          }
        }
      } catch {
        // The thread ended meanwhile.
      }
    }
  }
  walk(pid)
  return all
}

/** A 50 MB form: the every-field-type fixture plus an image of random (incompressible) pixels drawn on its first page. */
const bigForm = async (targetBytes: number): Promise<Uint8Array> => {
  const doc = await PDFDocument.load(await Fixtures.formWithEveryFieldType())
  const base = (await doc.save()).length
  const width = 4096
  const height = Math.floor((targetBytes - base - 4096) / (width * 3))
  const image = doc.context.stream(randomBytes(width * height * 3), {
    Type: "XObject",
    Subtype: "Image",
    Width: width,
    Height: height,
    ColorSpace: "DeviceRGB",
    BitsPerComponent: 8
  })
  const ref = doc.context.register(image)
  const page = doc.getPage(0)
  const name = page.node.newXObject("Noise", ref)
  const content = doc.context.stream(`q 100 0 0 ${(100 * height / width).toFixed(3)} 20 20 cm /${name.asString().slice(1)} Do Q`)
  page.node.addContentStream(doc.context.register(content))
  return doc.save({ useObjectStreams: false })
}

const main = async () => {
  const list = forms()
  const server = await ServerProcess.start({ entry: Path.join(IssueForms.repoRoot, "packages/http-node/src/bin.ts") })
  const upload = async (bytes: Uint8Array) => {
    const response = await server.call("/v1/forms/upload", { method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(bytes) })
    const body = await response.text()
    if (response.status !== 200) throw new Error(`upload: HTTP ${response.status}: ${body.slice(0, 500)}`)
    return (JSON.parse(body) as Array<{ fields: ReadonlyArray<unknown> }>)[0]!.fields.length
  }
  try {
    const speed: Array<ReadonlyArray<string>> = []
    const inside: Array<ReadonlyArray<string>> = []
    for (const form of list) {
      const bytes = new Uint8Array(Fs.readFileSync(form.path))
      const fields = await upload(bytes)
      const listed = await pdfLibAlone(bytes)
      const http: Array<number> = []
      const alone: Array<number> = []
      for (let i = 0; i < runs; i++) {
        http.push((await time(() => upload(bytes))).ms)
        alone.push((await time(() => pdfLibAlone(bytes))).ms)
      }
      const ratio = quantile(http, 0.5) / quantile(alone, 0.5)
      speed.push([
        form.label,
        `${(bytes.length / 1024).toFixed(0)} KiB`,
        `${fields}/${listed}`,
        ms(quantile(http, 0.5)),
        ms(quantile(http, 0.9)),
        ms(quantile(alone, 0.5)),
        ms(quantile(alone, 0.9)),
        `${ratio.toFixed(2)}x ${ratio <= 1.5 ? "(met)" : "(not met)"}`
      ])

      const measured: Array<Effect.Success<ReturnType<typeof pieces>>> = []
      for (let i = 0; i < Math.max(3, Math.ceil(runs / 2)); i++) {
        measured.push(await Effect.runPromise(pieces(bytes)))
      }
      const med = (key: keyof (typeof measured)[number]) => ms(quantile(measured.map((m) => m[key]), 0.5))
      const agreed = `${(100 * measured[0]!.agreement).toFixed(1)}%`
      inside.push([form.label, med("streams"), med("parse"), med("fields"), med("open"), med("text"), med("pdfium"), agreed, med("understanding"), med("total")])
    }

    if (speed.length > 0) {
      console.log(`upload over HTTP (POST /v1/forms/upload, loopback) against @cantoo/pdf-lib's parse + field listing alone`)
      console.log(`${runs} runs each, alternating, ${Os.cpus().length} cores, Node ${process.version}; target of issue 11: <= 1.5x on each form`)
      console.log("")
      table(["form", "size", "fields ours/pdf-lib", "upload median", "upload p90", "pdf-lib median", "pdf-lib p90", "upload/pdf-lib"], speed, [0, 7])
      console.log("")
      console.log(`the upload's PDF work piece by piece (medians of CPU time, in this process, as the worker runs it)`)
      console.log(`(page text is read by pdf.js; PDFium, the measured alternative, is timed beside it on the same pages, with the`)
      console.log(`share of its characters pdf.js reads too; the sum counts pdf.js)`)
      table(["form", "stream check", "pdf-lib parse", "fields", "pdf.js open", "pdf.js text", "PDFium text", "PDFium chars", "understanding", "sum"], inside)
      console.log("")
    }

    // Memory of a 50 MB upload.
    const big = await bigForm(50_000_000)
    const treeBefore = childrenOf(server.pid)
    const idle = { server: statusKb(server.pid, "VmRSS"), workers: treeBefore.reduce((sum, pid) => sum + statusKb(pid, "VmRSS"), 0) }
    for (const pid of [server.pid, ...treeBefore]) {
      try {
        Fs.writeFileSync(`/proc/${pid}/clear_refs`, "5")
      } catch {
        // Not allowed here: the peak then counts from the process start.
      }
    }
    const peak = { server: 0, workers: 0 }
    const sample = () => {
      peak.server = Math.max(peak.server, statusKb(server.pid, "VmRSS"))
      peak.workers = Math.max(peak.workers, childrenOf(server.pid).reduce((sum, pid) => sum + statusKb(pid, "VmRSS"), 0))
    }
    const sampler = setInterval(sample, 20)
    // A refusal (a worker past its memory cap) is a result too: the peaks up to it are printed.
    const took = await time(() => upload(big).then(String, (error: Error) => `refused: ${error.message.slice(0, 200)}`))
    clearInterval(sampler)
    const workers = childrenOf(server.pid)
    peak.server = Math.max(peak.server, statusKb(server.pid, "VmHWM"))
    peak.workers = Math.max(peak.workers, workers.reduce((sum, pid) => sum + statusKb(pid, "VmHWM"), 0))
    const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`
    const total = peak.server + peak.workers
    console.log(`peak resident memory of a ${mb(big.length)} upload (${/^\d+$/.test(took.value) ? `${took.value} fields` : took.value}, ${ms(took.ms)}); target of issue 11: <= 3x the file (${mb(3 * big.length)})`)
    table(["process", "idle RSS", "peak RSS", "peak - idle", "peak / file"], [
      ["server", mb(idle.server), mb(peak.server), mb(peak.server - idle.server), `${(peak.server / big.length).toFixed(2)}x`],
      [`workers (${workers.length})`, mb(idle.workers), mb(peak.workers), mb(peak.workers - idle.workers), `${(peak.workers / big.length).toFixed(2)}x`],
      [
        "together",
        mb(idle.server + idle.workers),
        mb(total),
        mb(total - idle.server - idle.workers),
        `${(total / big.length).toFixed(2)}x ${total <= 3 * big.length ? "(met)" : "(not met)"}`
      ]
    ])
  } catch (error) {
    console.error(server.output())
    throw error
  } finally {
    await server.stop()
  }
}

await main()
