/**
 * The contract is importable alone: loading `@formwright/api` loads effect, core's schema modules
 * (fields, profiles, ids) and nothing else; no server code, no storage, no PDF library.
 */
import { execFileSync } from "node:child_process"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"

const entry = Path.resolve(import.meta.dirname, "../src/index.ts")

/** Every module a fresh Node process loads to import `url`, by package (or repository path). */
const loadedBy = (url: string): ReadonlyArray<string> => {
  const script = `
    import { registerHooks } from "node:module"
    const seen = new Set()
    registerHooks({ load(url, context, next) { seen.add(url); return next(url, context) } })
    await import(${JSON.stringify(url)})
    console.log(JSON.stringify([...seen]))
  `
  const urls: ReadonlyArray<string> = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }))
  return [...new Set(urls.map((u) => {
    const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)
    return pkg ? pkg[1]! : u.startsWith("file:") ? Path.relative(Path.resolve(import.meta.dirname, "../.."), new URL(u).pathname) : u
  }))].sort()
}

describe("@formwright/api", () => {
  it("loads effect and core's schema modules only", () => {
    const loaded = loadedBy(entry)
    const allowed = (name: string) =>
      name === "effect" || name === "ulid" || name.startsWith("node:") || name.startsWith("api/src/") ||
      ["core/src/FormField.ts", "core/src/Profile.ts", "core/src/Id.ts", "core/src/understand/Vocabulary.ts"].includes(name)
    expect(loaded.filter((name) => !allowed(name))).toEqual([])
    expect(loaded).toContain("api/src/Api.ts")
  })
})
