/**
 * Run by scripts/pack-check.sh in a scratch project where the packed @formwright/* tarballs are
 * installed from npm (this file and embed.ts sit in docs/examples/ there too): loads every export
 * of every installed package, runs the embed example on them, and reads its filled PDF back with
 * pdf.js. From the scratch project's root:
 *
 *   node docs/examples/embed.smoke.ts <data-dir>
 */
import { Effect } from "effect"
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { layer, program } from "./embed.ts"

/** What embed.ts writes into every text field of the form it fills. */
const written = "Ζωή Жанна Zoë"

const fail = (message: string): never => {
  console.error(`[embed.smoke] ${message}`)
  process.exit(1)
}

const dataDir = process.argv[2] ?? fail("usage: node docs/examples/embed.smoke.ts <data-dir>")

// Every subpath each installed package exports loads on this Node, from its dist/.
const scope = join("node_modules", "@formwright")
for (const name of readdirSync(scope)) {
  const manifest = JSON.parse(readFileSync(join(scope, name, "package.json"), "utf8")) as { exports: Record<string, unknown> }
  for (const subpath of Object.keys(manifest.exports).filter((subpath) => !subpath.includes("*"))) {
    const specifier = `@formwright/${name}${subpath.slice(1)}`
    const resolved = import.meta.resolve(specifier)
    if (!resolved.includes("/dist/") || resolved.endsWith(".ts")) fail(`${specifier} resolves to ${resolved}, not to dist/ JavaScript`)
    await import(specifier).catch((error: unknown) => fail(`${specifier} does not load: ${String(error)}`))
  }
}

const outcome = await Effect.runPromise(program.pipe(Effect.provide(layer(dataDir))))
if (outcome.fieldCount < 5) fail(`the uploaded form has ${outcome.fieldCount} fields`)
if (outcome.filledFields === 0) fail("the session filled no field")
if (outcome.convertedFields.length === 0) fail("the conversion placed no field")

// The filled PDF, read back by an independent reader, holds the value written.
const filledPath = join(dataDir, "filled.pdf")
writeFileSync(filledPath, outcome.filledPdf)
const task = getDocument({ data: outcome.filledPdf.slice(), verbosity: 0 })
const document = await task.promise
let found = 0
for (let page = 1; page <= document.numPages; page++) {
  for (const annotation of await (await document.getPage(page)).getAnnotations()) if (annotation.fieldValue === written) found++
}
await task.destroy()
if (found === 0) fail(`pdf.js finds no field holding "${written}" in ${filledPath}`)

console.log(
  `[embed.smoke] Node ${process.versions.node}: uploaded ${outcome.fieldCount} fields, filled ${outcome.filledFields} ` +
    `(pdf.js reads "${written}" in ${found}), converted a flat PDF into ${outcome.convertedFields.length} fields`
)
