import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "docs/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // PDF work is CPU-bound; two cores on CI.
    maxWorkers: 2
  }
})
