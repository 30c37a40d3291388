import { afterAll } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
// By path: @formwright/testing is not (yet) a devDependency of this package.
import { StorageConformance } from "@formwright/testing"
import { FsStorage } from "../src/index.ts"

const directory = Fs.mkdtempSync(Path.join(Os.tmpdir(), "formwright-fs-conformance-"))
afterAll(() => Fs.rmSync(directory, { recursive: true, force: true }))

StorageConformance.run("fs", { layer: FsStorage.layer({ directory }), capabilities: { crossProcessConsistency: true } })
