/** The pure parts of the PostgreSQL adapter: the upper bound of a prefix range. */
import { Storage } from "@formwright/core"
import { describe, expect, it } from "vitest"
import { PgStorage } from "../src/index.ts"

describe("prefixSuccessor", () => {
  it("is the least string after every string with the prefix, in code-point order", () => {
    expect(PgStorage.prefixSuccessor("forms/u1/")).toBe("forms/u10")
    expect(PgStorage.prefixSuccessor("a")).toBe("b")
    expect(PgStorage.prefixSuccessor("")).toBeUndefined()
    expect(PgStorage.prefixSuccessor("a\u{10FFFF}")).toBe("b")
    expect(PgStorage.prefixSuccessor("\u{10FFFF}\u{10FFFF}")).toBeUndefined()
    // No character lies in the surrogate range, so U+D7FF is followed by U+E000.
    expect(PgStorage.prefixSuccessor("x\uD7FF")).toBe("x\uE000")
    expect(PgStorage.prefixSuccessor("x\u{1F642}")).toBe("x\u{1F643}")
  })

  it("bounds exactly the keys that start with the prefix", () => {
    const prefixes = ["", "a", "a/", "a/b", "Ü", "\uD7FF", "\u{1F642}", "z\u{10FFFF}"]
    const keys = ["", "a", "a/", "a/b", "a/b/c", "a-b", "a0", "b", "Ü", "Ünï", "Ý", "\uD7FF1", "\uE000", "\u{1F642}x", "\u{1F643}", "z\u{10FFFF}q", "{"]
    for (const prefix of prefixes) {
      const upper = PgStorage.prefixSuccessor(prefix)
      for (const key of keys) {
        const inRange = Storage.compareKeys(key, prefix) >= 0 && (upper === undefined || Storage.compareKeys(key, upper) < 0)
        expect(inRange, `${JSON.stringify(key)} under ${JSON.stringify(prefix)}`).toBe(key.startsWith(prefix))
      }
    }
  })
})
