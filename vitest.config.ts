import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "docs/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Stops the local S3 server (Ceph RGW) after the run if an S3 test file started it.
    globalSetup: ["packages/storage-s3/test/support/globalSetup.ts"],
    // PDF work is CPU-bound; two cores on CI.
    maxWorkers: 2
  }
})
