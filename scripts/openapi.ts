/**
 * Writes the OpenAPI description the server serves at `/openapi.json` (HttpApiBuilder serves
 * `OpenApi.fromApi(Api)`; test/OpenApiServed.test.ts checks the two are the same document), so
 * tools that read a file can check it:
 *
 *   node scripts/openapi.ts [out.json]     (default: openapi.json in the working directory)
 *
 * `npm run openapi:lint` writes it and runs Redocly's recommended rules on it (redocly.yaml).
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { Api } from "@formwright/api"
import { OpenApi } from "effect/http-api"

const out = process.argv[2] ?? "openapi.json"
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, `${JSON.stringify(OpenApi.fromApi(Api), null, 2)}\n`)
