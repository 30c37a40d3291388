/**
 * Measures the raster detector alone, without a server: for every `NAME.raster.pdf` in DIR with a
 * `NAME.truth.json` beside it (made with ../shared/eval/detect/make-flat.mjs and make-raster.mjs,
 * or taken from the `npm run eval -- detect --raster` cache), detects every page with
 * `RasterDetector.detectPage`, writes the fields in with `addFields` as `NAME.result.pdf`, and
 * scores it with ../shared/eval/detect/score.mjs. Prints per-file and total typed F1 @0.5 and the
 * median seconds per page.
 *
 *   node scripts/raster-probe.ts DIR [--resolution 1600] [--only SUBSTR] [--preview]
 */
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { addFields } from "../packages/core/src/detect/AddFields.ts"
import * as FieldDetector from "../packages/core/src/detect/FieldDetector.ts"
import * as RasterDetector from "../packages/core/src/detect/raster/RasterDetector.ts"
import type { PageDetection } from "../packages/core/src/detect/Pipeline.ts"
import * as PagePreview from "../packages/core/src/pdf/PagePreview.ts"
import * as PdfJs from "../packages/core/src/pdf/PdfJs.ts"

const args = process.argv.slice(2)
const option = (name: string) => {
  const at = args.indexOf(name)
  return at >= 0 ? args.splice(at, 2)[1] : undefined
}
const resolution = Number(option("--resolution") ?? 1600)
const only = option("--only")
/** Writes NAME.pN.png review pictures (fields outlined by type) beside the results. */
const preview = args.includes("--preview") ? (args.splice(args.indexOf("--preview"), 1), true) : false
const dir = args[0]
if (!dir || !existsSync(dir)) {
  console.error("usage: node scripts/raster-probe.ts DIR [--resolution 1600] [--only SUBSTR]")
  process.exit(2)
}
const scorer = resolve(import.meta.dirname, "../../shared/eval/detect/score.mjs")

interface Typed {
  tp: number
  fp: number
  fn: number
}
const total: Typed = { tp: 0, fp: 0, fn: 0 }
const perPage: Array<number> = []
const f1 = (s: Typed) => (2 * s.tp) / Math.max(1, 2 * s.tp + s.fp + s.fn)

for (const file of readdirSync(dir).filter((f) => f.endsWith(".raster.pdf")).sort()) {
  const name = file.slice(0, -".raster.pdf".length)
  if (only && !name.includes(only)) continue
  const truth = join(dir, `${name}.truth.json`)
  if (!existsSync(truth)) continue
  const bytes = new Uint8Array(readFileSync(join(dir, file)))
  const options: RasterDetector.RasterOptions = { confidence: 0.1, allowCheckboxes: true, resolution }
  const times: Array<number> = []
  const found = await Effect.runPromise(
    PdfJs.use(
      bytes,
      (doc) =>
        Effect.gen(function*() {
          const all: Array<PageDetection> = []
          for (let n = 1; n <= doc.numPages; n++) {
            const started = performance.now()
            all.push(...(yield* RasterDetector.detectPage(doc, n, options)))
            times.push((performance.now() - started) / 1000)
          }
          return all
        }),
      { forRendering: true, maxImagePixels: PagePreview.bounds.maxImagePixels }
    )
  )
  perPage.push(...times)
  const fields = FieldDetector.name(found)
  const written = await Effect.runPromise(addFields(bytes, fields))
  const out = join(dir, `${name}.result.pdf`)
  writeFileSync(out, written.pdf)
  if (preview) {
    for (let n = 1; n <= times.length; n++) {
      const marks = fields.map((f) => ({
        name: f.name,
        form_name: f.formName,
        form_type: f.kind === "CheckBox" ? ("CheckBox" as const) : ("Text" as const),
        page: f.page,
        rect: [f.rect.x1, f.rect.y1, f.rect.x2, f.rect.y2],
        confidence: f.confidence
      }))
      const picture = await Effect.runPromise(PagePreview.render({ pdf: written.pdf, page: n, fields: marks }))
      if (picture._tag === "Rendered") writeFileSync(join(dir, `${name}.p${n}.png`), picture.png)
    }
  }
  const scored = spawnSync("node", [scorer, truth, out], { encoding: "utf8" })
  const typed = JSON.parse(scored.stdout) as Typed & { f1: number }
  total.tp += typed.tp
  total.fp += typed.fp
  total.fn += typed.fn
  console.log(
    `${name.padEnd(48)} fields ${String(fields.length).padStart(4)}  tp ${typed.tp} fp ${typed.fp} fn ${typed.fn}  F1 ${typed.f1.toFixed(3)}  ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(2)} s/page`
  )
}
const sorted = [...perPage].sort((a, b) => a - b)
console.log(
  `TOTAL typed@0.5 tp ${total.tp} fp ${total.fp} fn ${total.fn}  P ${(total.tp / Math.max(1, total.tp + total.fp)).toFixed(3)} R ${(total.tp / Math.max(1, total.tp + total.fn)).toFixed(3)} F1 ${f1(total).toFixed(3)}  median ${(sorted[sorted.length >> 1] ?? 0).toFixed(2)} s/page over ${sorted.length} pages`
)
