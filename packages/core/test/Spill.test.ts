import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach } from "vitest"
import * as Spill from "../src/pdf/Spill.ts"

const dirs: Array<string> = []
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "spill-test-"))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const large = () => Uint8Array.from({ length: Spill.threshold + 10 }, (_, i) => i % 251)

describe("Spill", () => {
  it("sends large bytes, alone or as a property, as files and reads them back whole", async () => {
    const dir = freshDir()
    const bytes = large()
    const task = { pdf: bytes, options: { pages: [1] } }
    const sent = await Spill.spill(task, dir)
    expect(sent.files).toHaveLength(1)
    // The message carries a path, not the bytes.
    expect(JSON.stringify(sent.value).length).toBeLessThan(500)
    expect(readdirSync(dir)).toHaveLength(1)
    const received = Spill.restoreSync(sent.value) as typeof task
    expect(received.options).toEqual({ pages: [1] })
    expect(Buffer.from(received.pdf).equals(Buffer.from(bytes))).toBe(true)
    // The worker reads; the sender removes.
    await Spill.removeAll(sent.files)
    expect(readdirSync(dir)).toEqual([])

    const result = Spill.spillSync(bytes, dir)
    expect(readdirSync(dir)).toHaveLength(1)
    const back = await Spill.restore(result)
    expect(Buffer.from(back as Uint8Array).equals(Buffer.from(bytes))).toBe(true)
    expect(readdirSync(dir)).toEqual([])
  })

  it("leaves small bytes and other values in the message", async () => {
    const dir = freshDir()
    const small = { pdf: new Uint8Array(1000), n: 3 }
    const sent = await Spill.spill(small, dir)
    expect(sent.value).toBe(small)
    expect(sent.files).toEqual([])
    expect(Spill.spillSync([large()], dir)).toHaveLength(1)
    expect(readdirSync(dir)).toEqual([])
    expect(await Spill.restore("text")).toBe("text")
  })

  it("makes a directory of its own, and removes those that processes which have ended left behind", () => {
    const parent = freshDir()
    const ended = spawnSync(process.execPath, ["-e", ""]).pid
    mkdirSync(join(parent, `formwright-pdf-${ended}-abc123`))
    // pid 1 is alive: another server's directory stays, as does anything not named like these.
    mkdirSync(join(parent, "formwright-pdf-1-def456"))
    mkdirSync(join(parent, "something-else"))
    const dir = Spill.makeDir(parent)
    expect(dir.startsWith(join(parent, `formwright-pdf-${process.pid}-`))).toBe(true)
    expect(readdirSync(parent).sort()).toEqual(["formwright-pdf-1-def456", dir.slice(parent.length + 1), "something-else"].sort())
  })

  it("fails without leaving a file when the directory cannot take it", async () => {
    const dir = join(freshDir(), "missing")
    await expect(Spill.spill({ a: large(), b: large() }, dir)).rejects.toThrow(/ENOENT/)
    expect(() => Spill.spillSync(large(), dir)).toThrow(/ENOENT/)
  })
})
