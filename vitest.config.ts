import { configDefaults, defineConfig } from "vitest/config"

/** The hostile-input suite measures /health latency and peak memory, so it runs alone, last. */
const hostileSuite = "packages/http-node/test/Hostile.test.ts"

/** The whole-system test (scripts/system-test.ts) starts a deployment of its own: alone, after the rest. */
const systemSuite = "scripts/system/System.test.ts"

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Stops the local S3 server (Ceph RGW) and PostgreSQL after the run if a test file started them.
    globalSetup: ["packages/storage-s3/test/support/globalSetup.ts", "packages/postgres/test/support/globalSetup.ts"],
    // PDF work is CPU-bound; two cores on CI.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["packages/*/test/**/*.test.ts", "docs/**/*.test.ts"],
          exclude: [...configDefaults.exclude, hostileSuite],
          sequence: { groupOrder: 0 }
        }
      },
      {
        extends: true,
        test: {
          name: "hostile",
          include: [hostileSuite],
          fileParallelism: false,
          sequence: { groupOrder: 1 }
        }
      },
      {
        extends: true,
        test: {
          name: "system",
          include: [systemSuite],
          fileParallelism: false,
          sequence: { groupOrder: 2 }
        }
      }
    ]
  }
})
