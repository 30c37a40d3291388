import { describe, expect, it } from "@effect/vitest"
import * as FileName from "../src/FileName.ts"

describe("FileName", () => {
  it("generates <guid>_<unix_timestamp>.pdf", () => {
    const name = FileName.generate(new Date("2026-01-02T03:04:05Z"))
    expect(name).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}_1767323045\.pdf$/)
  })

  it("strips path parts and control characters and ends in .pdf", () => {
    expect(FileName.sanitize("../../etc/passwd")).toBe("passwd.pdf")
    expect(FileName.sanitize("C:\\Users\\ada\\form.PDF")).toBe("form.PDF")
    expect(FileName.sanitize("a\u0000b\u001fc.pdf")).toBe("abc.pdf")
    expect(FileName.sanitize("Ζωή.pdf")).toBe("Ζωή.pdf")
    expect(FileName.sanitize("   ")).toBeUndefined()
    expect(FileName.sanitize("dir/")).toBeUndefined()
  })

  it("keeps names within 255 bytes of UTF-8 without splitting a character", () => {
    const name = FileName.sanitize(`${"ж".repeat(300)}.pdf`)!
    expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(255)
    expect(name.endsWith(".pdf")).toBe(true)
    expect(name).not.toContain("\uFFFD")
  })

  it("chooses the given name when usable, else a generated one", () => {
    expect(FileName.choose("x.pdf")).toBe("x.pdf")
    expect(FileName.choose(undefined)).toMatch(/_\d+\.pdf$/)
  })
})

describe("FileName.clean", () => {
  it("applies the rules of sanitize but keeps the extension", () => {
    expect(FileName.clean("../../etc/notes.txt")).toBe("notes.txt")
    expect(FileName.clean("C:\\Users\\ada\\data.json")).toBe("data.json")
    expect(FileName.clean("..hidden\u0000.txt")).toBe("hidden.txt")
    expect(FileName.clean("  ")).toBeUndefined()
    expect(FileName.clean(undefined)).toBeUndefined()
  })

  it("shortens a 10 KB name with ../ parts to 255 bytes at once, keeping a short extension", () => {
    const started = performance.now()
    const name = FileName.clean(`${"../".repeat(1000)}${"ж".repeat(5000)}.txt`)!
    expect(performance.now() - started).toBeLessThan(100)
    expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(255)
    expect(name.endsWith(".txt")).toBe(true)
    expect(name).not.toContain("/")
    const huge = FileName.sanitize("a".repeat(5_000_000))!
    expect(new TextEncoder().encode(huge).length).toBeLessThanOrEqual(255)
    expect(huge.endsWith(".pdf")).toBe(true)
  })
})
