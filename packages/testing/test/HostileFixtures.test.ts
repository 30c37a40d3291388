/**
 * The hostile PDF generators: deterministic, small and quick to make at attack size, decoding to
 * exactly the size asked for, and well-formed PDFs where they are meant to be, as an independent
 * reader (qpdf) sees them. The qpdf checks skip, saying so, where qpdf is not installed.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInflate, inflateSync } from "node:zlib"
import { afterAll, describe, expect, it } from "vitest"
import { Fixtures, HostileFixtures } from "@formwright/testing"

const MiB = 1024 * 1024
const ascii = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1")
const enc = (text: string) => new Uint8Array(Buffer.from(text, "latin1"))

const qpdfAvailable = spawnSync("qpdf", ["--version"]).status === 0
if (!qpdfAvailable) console.warn("qpdf not found: the checks of the hostile PDFs with an independent reader were skipped (apt-get install qpdf).")
const withQpdf = qpdfAvailable ? it : it.skip

const dir = mkdtempSync(join(tmpdir(), "formwright-hostile-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** `qpdf <args> file`: its exit code (0 clean, 3 warnings, 2 errors) and output. */
const qpdf = (bytes: Uint8Array, ...args: Array<string>) => {
  const file = join(dir, `f-${Math.random().toString(36).slice(2)}.pdf`)
  writeFileSync(file, bytes)
  const run = spawnSync("qpdf", [...args, file], { encoding: "utf8", timeout: 120_000, maxBuffer: 64 * MiB })
  rmSync(file, { force: true })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

const expectClean = (bytes: Uint8Array) => {
  const { status, output } = qpdf(bytes, "--check")
  expect(status, output.slice(0, 2000)).toBe(0)
}

/** The stream data of the first object whose dictionary holds `marker`. */
const streamOf = (pdf: Uint8Array, marker: string): Uint8Array => {
  const text = ascii(pdf)
  const at = text.indexOf(marker)
  const lengthMatch = /\/Length (\d+)/.exec(text.slice(at))!
  const start = text.indexOf("stream\n", at) + "stream\n".length
  return pdf.subarray(start, start + Number(lengthMatch[1]))
}

/** The decoded length of zlib `data`, inflated a chunk at a time (never held whole). */
const inflatedLength = (data: Uint8Array) =>
  new Promise<number>((resolve, reject) => {
    let total = 0
    const inflater = createInflate()
    inflater.on("data", (chunk: Buffer) => (total += chunk.length))
    inflater.on("end", () => resolve(total))
    inflater.on("error", reject)
    inflater.end(data)
  })

describe("random and caseSeed", () => {
  it("the same seed gives the same sequence; integers stay in range", () => {
    const a = HostileFixtures.random(42)
    const b = HostileFixtures.random(42)
    const xs = Array.from({ length: 100 }, () => a.int(10))
    expect(Array.from({ length: 100 }, () => b.int(10))).toEqual(xs)
    expect(xs.every((x) => x >= 0 && x < 10)).toBe(true)
    expect(new Set(xs).size).toBe(10)
    const c = HostileFixtures.random(43)
    expect(Array.from({ length: 100 }, () => c.int(10))).not.toEqual(xs)
  })

  it("case seeds differ across cases and runs", () => {
    const seeds = new Set<number>()
    for (let run = 0; run < 10; run++) for (let i = 0; i < 1000; i++) seeds.add(HostileFixtures.caseSeed(run, i))
    expect(seeds.size).toBe(10_000)
  })
})

describe("mutate", () => {
  it("every kind changes the file, the same way for the same seed, and grows it by 4 MiB at most", async () => {
    const form = await Fixtures.formWithEveryFieldType()
    const donor = HostileFixtures.manyPages(3)
    for (const kind of HostileFixtures.mutationKinds) {
      for (let seed = 0; seed < 20; seed++) {
        const one = HostileFixtures.mutate(form, seed, { kind, donor })
        const two = HostileFixtures.mutate(form, seed, { kind, donor })
        expect(Buffer.compare(one.bytes, two.bytes), `${kind} ${seed}`).toBe(0)
        expect(one.detail).toBe(two.detail)
        expect(one.bytes.length).toBeLessThanOrEqual(Math.max(form.length, donor.length) + 4 * MiB + 64)
      }
      const changed = Array.from({ length: 20 }, (_, seed) => HostileFixtures.mutate(form, seed, { kind, donor }))
        .filter((m) => Buffer.compare(m.bytes, form) !== 0)
      expect(changed.length, kind).toBeGreaterThanOrEqual(18)
    }
  })

  it("the seed picks the kind: all of them over a few hundred seeds; the input is never modified", async () => {
    // With an object stream, so that kind has one to damage.
    const pdf = await Fixtures.formWithEveryFieldType()
    const copy = pdf.slice()
    const kinds = new Set(Array.from({ length: 300 }, (_, seed) => HostileFixtures.mutate(pdf, seed).kind))
    expect([...kinds].sort()).toEqual([...HostileFixtures.mutationKinds].sort())
    expect(Buffer.compare(pdf, copy)).toBe(0)
  })

  it("objectStream changes a number in the header of an object stream", async () => {
    const form = await Fixtures.formWithEveryFieldType()
    expect(ascii(form)).toContain("/ObjStm")
    for (let seed = 0; seed < 10; seed++) {
      const m = HostileFixtures.mutate(form, seed, { kind: "objectStream" })
      expect(m.kind).toBe("objectStream")
      expect(m.detail).toMatch(/header number \d+ -> \d+/)
      const [, from, to] = /header number (\d+) -> (\d+)/.exec(m.detail)!
      expect(from).not.toBe(to)
    }
  })

  it("a big file is mutated quickly", () => {
    const big = HostileFixtures.manyPages(20_000)
    const started = performance.now()
    for (let seed = 0; seed < 50; seed++) HostileFixtures.mutate(big, seed)
    expect(performance.now() - started).toBeLessThan(5_000)
  })
})

describe("deflateParts", () => {
  it("decodes to exactly the parts, with a valid checksum, for runs long and short", async () => {
    for (const pattern of [" ", "q Q\n", "abc", "0 0 m 1 1 l S\n"]) {
      for (const length of [0, 1, 1000, 3 * MiB + 5, 6 * MiB + 12_345]) {
        const parts = [enc("head"), { pattern: enc(pattern), length }, enc("tail")]
        const decoded = inflateSync(await HostileFixtures.deflateParts(parts))
        const expected = Buffer.alloc(length + 8)
        expected.write("head", 0, "latin1")
        for (let i = 0; i < length; i++) expected[4 + i] = pattern.charCodeAt(i % pattern.length)
        expected.write("tail", 4 + length, "latin1")
        expect(decoded.equals(expected), `${JSON.stringify(pattern)} x ${length}`).toBe(true)
      }
    }
  })
})

describe("bombs at attack size", () => {
  it("objectStreamBomb(512 MiB): about 0.5 MB, its object stream inflates to exactly 512 MiB", async () => {
    const started = performance.now()
    const pdf = await HostileFixtures.objectStreamBomb(512 * MiB)
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(pdf.length).toBeLessThan(600_000)
    expect(ascii(pdf.subarray(0, 8))).toBe("%PDF-1.7")
    expect(await inflatedLength(streamOf(pdf, "/Type /ObjStm"))).toBe(512 * MiB)
    expect(Buffer.compare(pdf, await HostileFixtures.objectStreamBomb(512 * MiB))).toBe(0)
  })

  it("contentStreamBomb(1 GiB): about 1 MB, its content stream inflates to exactly 1 GiB", async () => {
    const pdf = await HostileFixtures.contentStreamBomb(1024 * MiB)
    expect(pdf.length).toBeLessThan(1_200_000)
    expect(await inflatedLength(streamOf(pdf, "/Filter /FlateDecode"))).toBe(1024 * MiB)
  }, 60_000)

  it("imageBomb(16000, 16000): its image inflates to width x height bytes", async () => {
    const pdf = await HostileFixtures.imageBomb(16_000, 16_000)
    expect(pdf.length).toBeLessThan(300_000)
    expect(await inflatedLength(streamOf(pdf, "/Subtype /Image"))).toBe(16_000 * 16_000)
  })

  it("textBomb: 10^7 leaf draws from a few KB", () => {
    const pdf = HostileFixtures.textBomb()
    expect(pdf.length).toBeLessThan(5_000)
    // 7 levels of 10 draws each above a leaf that shows one text run.
    expect(ascii(pdf).match(/\/X6 Do/g)).toHaveLength(10)
    expect(ascii(pdf)).toContain("/X7 Do")
    expect(Buffer.compare(pdf, HostileFixtures.textBomb())).toBe(0)
  })

  it("fontPostTableLoop: a TrueType font whose post table is declared far longer than the font", () => {
    const pdf = HostileFixtures.fontPostTableLoop()
    expect(pdf.length).toBeLessThan(3_000)
    const font = streamOf(pdf, "/Length1")
    const view = new DataView(font.buffer, font.byteOffset, font.byteLength)
    const tables = view.getUint16(4)
    const entries = Array.from({ length: tables }, (_, i) => ({
      tag: ascii(font.subarray(12 + 16 * i, 16 + 16 * i)),
      offset: view.getUint32(12 + 16 * i + 8),
      length: view.getUint32(12 + 16 * i + 12)
    }))
    expect(entries.map((e) => e.tag)).toEqual(["head", "hhea", "hmtx", "loca", "maxp", "post"])
    const post = entries.find((e) => e.tag === "post")!
    expect(post.offset + post.length).toBeGreaterThan(font.length * 1000)
  })

  it("manyPages(100,000): about 10 MB, made in well under a second or two", () => {
    const started = performance.now()
    const pdf = HostileFixtures.manyPages(100_000)
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(pdf.length).toBeGreaterThan(5 * MiB)
    expect(pdf.length).toBeLessThan(12 * MiB)
  })

  it("every case of the catalogue is a PDF under 11 MB, the same bytes each time", async () => {
    for (const hostile of HostileFixtures.catalogue) {
      const one = await hostile.make()
      expect(ascii(one.subarray(0, 5)), hostile.name).toBe("%PDF-")
      expect(one.length, hostile.name).toBeLessThan(11 * MiB)
      expect(Buffer.compare(one, await hostile.make()), hostile.name).toBe(0)
    }
  }, 60_000)
})

describe("an independent reader (qpdf) sees well-formed PDFs", () => {
  withQpdf("object-stream and content-stream bombs (8 MiB), an image bomb, the text bomb", async () => {
    expectClean(await HostileFixtures.objectStreamBomb(8 * MiB))
    expectClean(await HostileFixtures.contentStreamBomb(8 * MiB, "whitespace"))
    expectClean(await HostileFixtures.contentStreamBomb(8 * MiB + 3, "operators"))
    expectClean(await HostileFixtures.imageBomb(1000, 1000))
    expectClean(HostileFixtures.textBomb())
  })

  withQpdf("the object-stream bomb at 512 MiB", async () => {
    expectClean(await HostileFixtures.objectStreamBomb(512 * MiB))
  }, 60_000)

  withQpdf("manyPages: a flat tree, a deep one, and 16,384 pages; 100,000 pages counted", () => {
    expectClean(HostileFixtures.manyPages(3))
    expectClean(HostileFixtures.manyPages(250, { fanOut: 1000 }))
    expectClean(HostileFixtures.manyPages(2_500, { fanOut: 4 }))
    expectClean(HostileFixtures.manyPages(16_384))
    const count = qpdf(HostileFixtures.manyPages(100_000), "--show-npages")
    expect(count.output.trim()).toBe("100000")
  }, 60_000)

  withQpdf("deep nesting within qpdf's own limit, path segments, many fields", () => {
    expectClean(HostileFixtures.deepNesting(100, "array"))
    expectClean(HostileFixtures.deepNesting(100, "dictionary"))
    expectClean(HostileFixtures.deepNesting(1_000, "pageTree"))
    expectClean(HostileFixtures.manyPathSegments(10_000))
    expectClean(HostileFixtures.manyFields(500))
    expect(qpdf(HostileFixtures.manyFields(500), "--show-npages").output.trim()).toBe("10")
  })

  withQpdf("the catalogue's well-formed cases at attack size, but for the bombs (checked above) and 100,000 pages (counted above)", async () => {
    for (const hostile of HostileFixtures.catalogue) {
      // qpdf takes minutes over 10^8 operators or 10^5 pages; those are checked smaller above.
      if (!hostile.wellFormed || hostile.name.includes("bomb") || hostile.name === "100,000 pages") continue
      const bytes = await hostile.make()
      const { status, output } = qpdf(bytes, "--check")
      expect(status, `${hostile.name}: ${output.slice(0, 1000)}`).toBe(0)
      expect(qpdf(bytes, "--show-npages").output.trim(), `${hostile.name}: its pages`).toBe(String(hostile.pages ?? 1))
    }
  }, 120_000)

  withQpdf("the malformed ones are malformed: qpdf reports the loop, the cycle, the depth", () => {
    expect(qpdf(HostileFixtures.pageTreeCycle(), "--check").output).toMatch(/loop/i)
    expect(qpdf(HostileFixtures.xrefLoop(), "--check").output).toMatch(/loop/i)
    expect(qpdf(HostileFixtures.selfReferentialLength(), "--check").output).toMatch(/loop|Length/i)
    expect(qpdf(HostileFixtures.deepNesting(100_000, "array"), "--check").output).toMatch(/deeply nested/i)
    const damaged = qpdf(HostileFixtures.badPageReference(), "--check")
    expect(damaged.output).toMatch(/damaged|reconstruct/i)
    // Recovered by scanning the file, as readers do: both pages are there.
    expect(qpdf(HostileFixtures.badPageReference(), "--show-npages").output).toMatch(/^2$/m)
  })
})
