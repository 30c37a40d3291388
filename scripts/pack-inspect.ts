/**
 * Looks inside the tarballs `pnpm pack` made (scripts/pack-check.sh) for what breaks only once a
 * package is installed from the registry: a file the exports or the bin name that is not shipped,
 * a `.ts` path left in the emitted JavaScript (Node refuses to strip types under node_modules), an
 * import of a package the manifest does not declare (the workspace's hoisting hid it), tests or
 * sources shipped, `workspace:` versions, or a dependency on the unrelated npm package `formwright`.
 *
 *   node scripts/pack-inspect.ts <tarball-dir> <unpack-dir>
 *
 * Prints `{ "<package name>": "<tarball path>" }` on stdout; each problem on stderr, then exits 1.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs"
import { builtinModules } from "node:module"
import { dirname, join, relative, resolve } from "node:path"
import ts from "typescript"

interface Manifest {
  readonly name: string
  readonly version: string
  readonly exports?: unknown
  readonly bin?: string | Record<string, string>
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly optionalDependencies?: Record<string, string>
  readonly devDependencies?: Record<string, string>
}

const [tarballDir, unpackDir] = process.argv.slice(2)
if (tarballDir === undefined || unpackDir === undefined) {
  console.error("usage: node scripts/pack-inspect.ts <tarball-dir> <unpack-dir>")
  process.exit(2)
}

const problems: Array<string> = []
const tarballs: Record<string, string> = {}

const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => statSync(join(dir, file)).isFile())

/** What a published package may hold: its manifest, its notes and what it runs from. */
const shippable = (file: string) =>
  file === "package.json" || /^(README|LICENSE|CHANGELOG)(\.md)?$/i.test(file) ||
  (file.startsWith("dist/") && /\.(js|d\.ts|js\.map)$/.test(file) && !/\.test\.|\/test\//.test(file))

/** Every target an `exports` value names, with the conditions that lead to it. */
const exportTargets = (value: unknown, conditions: Array<string> = []): Array<{ conditions: Array<string>; target: string }> =>
  typeof value === "string"
    ? [{ conditions, target: value }]
    : value !== null && typeof value === "object"
    ? Object.entries(value).flatMap(([key, inner]) => exportTargets(inner, [...conditions, key]))
    : []

const packageNameOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/")
const builtins = new Set(builtinModules)

/**
 * What a file loads: TypeScript's own scanner finds the imports, re-exports, `import()` and
 * `require()` calls (not the examples in comments), and two patterns add what it cannot see:
 * `new URL("...", import.meta.url)` (how the PDF worker's script is found) and calls through
 * `createRequire(import.meta.url)`.
 */
const specifiersIn = (code: string, javascript: boolean) => [
  ...ts.preProcessFile(code, true, javascript).importedFiles.map((file) => file.fileName),
  ...[...code.matchAll(/new URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url\s*\)/g)].map((match) => match[1]!),
  ...[...code.matchAll(/createRequire\(import\.meta\.url\)(?:\.resolve)?\(\s*["']([^"']+)["']/g)].map((match) => match[1]!)
]

mkdirSync(unpackDir, { recursive: true })
for (const file of readdirSync(tarballDir).filter((name) => name.endsWith(".tgz")).sort()) {
  const tarball = resolve(tarballDir, file)
  const into = join(unpackDir, file.replace(/\.tgz$/, ""))
  mkdirSync(into, { recursive: true })
  execFileSync("tar", ["-xzf", tarball, "-C", into])
  const root = join(into, "package")
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Manifest
  const say = (problem: string) => problems.push(`${manifest.name} (${file}): ${problem}`)
  tarballs[manifest.name] = tarball

  if (!manifest.name.startsWith("@formwright/")) say(`the name is not under the @formwright scope`)
  const files = filesUnder(root)
  for (const shipped of files.filter((shipped) => !shippable(shipped))) say(`ships ${shipped}`)
  if (!files.some((shipped) => shipped.endsWith(".d.ts"))) say("ships no type declarations")

  const declared = { ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies }
  for (const [kind, dependencies] of Object.entries({ dependencies: manifest.dependencies, peerDependencies: manifest.peerDependencies, optionalDependencies: manifest.optionalDependencies, devDependencies: manifest.devDependencies })) {
    for (const [name, spec] of Object.entries(dependencies ?? {})) {
      if (name === "formwright") say(`${kind} names "formwright", an unrelated npm package`)
      if (/^(workspace|file|link):/.test(spec)) say(`${kind}.${name} is "${spec}", which the registry cannot resolve`)
    }
  }

  // The exports: every subpath has types and a default, under dist/, shipped.
  if (manifest.exports === undefined) say("has no exports")
  const subpaths = typeof manifest.exports === "object" && manifest.exports !== null && Object.keys(manifest.exports).every((key) => key.startsWith("."))
    ? Object.entries(manifest.exports)
    : [[".", manifest.exports] as const]
  for (const [subpath, value] of subpaths) {
    const targets = exportTargets(value)
    if (!targets.some((target) => target.conditions.includes("types") && target.target.endsWith(".d.ts"))) say(`exports["${subpath}"] has no "types" .d.ts`)
    if (!targets.some((target) => target.conditions.at(-1) === "default" || target.conditions.length === 0)) say(`exports["${subpath}"] has no "default"`)
    for (const { target } of targets) {
      if (!target.startsWith("./dist/")) say(`exports["${subpath}"] points at ${target}, outside dist/`)
      // A pattern ("./*") is checked through the files it can name: its directory must exist.
      else if (!existsSync(join(root, target.includes("*") ? dirname(target) : target))) say(`exports["${subpath}"] points at ${target}, which is not in the tarball`)
    }
  }

  // The bin: shipped, JavaScript, with a shebang npm can link.
  const bins = typeof manifest.bin === "string" ? { [manifest.name]: manifest.bin } : manifest.bin ?? {}
  for (const [command, target] of Object.entries(bins)) {
    if (!existsSync(join(root, target))) say(`bin ${command} is ${target}, which is not in the tarball`)
    else if (!target.endsWith(".js")) say(`bin ${command} is ${target}, not JavaScript`)
    else if (!readFileSync(join(root, target), "utf8").startsWith("#!/usr/bin/env node")) say(`bin ${command} (${target}) has no #!/usr/bin/env node`)
  }

  // What the emitted code loads: relative paths that exist, packages the manifest declares.
  for (const emitted of files.filter((shipped) => shipped.endsWith(".js") || shipped.endsWith(".d.ts"))) {
    const code = readFileSync(join(root, emitted), "utf8")
    const javascript = emitted.endsWith(".js")
    for (const specifier of specifiersIn(code, javascript)) {
      if (specifier.startsWith(".")) {
        const target = join(root, dirname(emitted), specifier)
        // A declaration may name a sibling by its source's name: TypeScript reads the .d.ts for it.
        const candidates = javascript ? [target] : [target, target.replace(/\.(js|ts)$/, ".d.ts"), `${target}.d.ts`]
        if (javascript && /\.tsx?$/.test(specifier)) say(`${emitted} loads ${specifier}, a TypeScript source`)
        else if (!candidates.some((candidate) => existsSync(candidate))) say(`${emitted} loads ${specifier}, which is not in the tarball (${relative(root, target)})`)
      } else if (javascript && !specifier.startsWith("node:") && !builtins.has(specifier) && !/^[a-z]+:/.test(specifier)) {
        const name = packageNameOf(specifier)
        if (name !== manifest.name && declared[name] === undefined) say(`${emitted} imports ${specifier}, but ${name} is not among its dependencies`)
      }
    }
    // In emitted JavaScript a `/// <reference>` is only a comment; in a declaration it must resolve.
    for (const { fileName } of javascript ? [] : ts.preProcessFile(code, true, false).referencedFiles) {
      if (!existsSync(join(root, dirname(emitted), fileName))) say(`${emitted} references ${fileName}, which is not in the tarball`)
    }
  }
}

if (Object.keys(tarballs).length === 0) problems.push(`no tarballs in ${tarballDir}`)
for (const problem of problems) console.error(`[pack-inspect] ${problem}`)
if (problems.length > 0) process.exit(1)
console.log(JSON.stringify(tarballs))
