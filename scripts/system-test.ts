/**
 * The whole-system test (issue 10, point 5): `npm run system-test`.
 *
 * The system (scripts/system/Cluster.ts): PostgreSQL, Ceph RGW, one converter service and two
 * API servers on PostgreSQL + S3 that hand conversions to it, plus a webhook receiver here.
 * The load: 40 sessions and 20 conversions, sent alternately to both API servers, a few at a time.
 * The faults: once a third of the work is acknowledged and jobs are running, the first API server
 * and the converter are killed with SIGKILL (with their PDF workers); the converter is started
 * again 3 s later.
 *
 * It passes when every acknowledged session and conversion ends `completed`, each ran as exactly
 * one pg-boss job that ended `completed`, the receiver got exactly one `*.completed` event id per
 * item (and no `*.failed`), every acknowledged record reads the same from either server (the
 * killed one is started again at the end for that), and the uploaded forms are all listed.
 * Exit 0 when it passes, 1 when it fails; skipped with a message (exit 0) without PostgreSQL or
 * radosgw. Prints its timings: the run, the takeover of the killed server's jobs, the ends.
 */
import * as Crypto from "node:crypto"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Cluster from "./system/Cluster.ts"
import { pool, send, smallFlatPdfs, smallForms } from "./system/Load.ts"

const sessions = Number(process.env.SYSTEM_TEST_SESSIONS ?? 40)
const conversions = Number(process.env.SYSTEM_TEST_CONVERSIONS ?? 20)
const say = (line: string) => process.stdout.write(`[system-test] ${line}\n`)
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

interface Delivery {
  readonly id: string
  readonly type: string
  readonly data: Record<string, unknown>
  readonly signed: boolean
}

const receiver = async () => {
  const deliveries: Array<Delivery> = []
  const http = Http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const timestamp = String(request.headers["x-formwright-timestamp"])
      const expected = `sha256=${Crypto.createHmac("sha256", Cluster.webhookSecret).update(`${timestamp}.${body}`).digest("hex")}`
      const event = JSON.parse(body)
      deliveries.push({ id: String(request.headers["x-formwright-delivery"]), type: event.type, data: event.data, signed: request.headers["x-formwright-signature"] === expected })
      response.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/hook`, deliveries, close: () => http.close() }
}

interface Item {
  readonly kind: "session" | "conversion"
  readonly id: string
  readonly via: number
  readonly at: number
}

const main = async () => {
  const lacking = Cluster.missing()
  if (lacking !== undefined) {
    say(`skipped: the system test needs ${lacking}`)
    return 0
  }
  const began = Date.now()
  const hook = await receiver()
  const cluster = await Cluster.start({ apiServers: 2, webhookUrl: hook.url, say })
  const failures: Array<string> = []
  const check = (ok: boolean, what: string) => {
    if (!ok) failures.push(what)
  }
  try {
    const servers = [...cluster.api]
    const ready = Date.now()

    // Forms to fill, uploaded through both servers (acknowledged: they must all stay).
    const formPdfs = smallForms(3)
    const formIds: Array<string> = []
    for (const [index, pdf] of formPdfs.entries()) {
      const answer = await send(servers, index % 2, "/v1/forms/upload", () => ({ method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(pdf) }))
      if (answer.status !== 200) throw new Error(`upload: ${answer.status} ${JSON.stringify(answer.body)}`)
      formIds.push(answer.body[0].form_id)
    }
    const flats = smallFlatPdfs(2)
    if (formIds.length === 0 || flats.length === 0) throw new Error("the corpus has no small forms or flat PDFs")

    // The work, interleaved: two sessions, one conversion, ...
    const total = sessions + conversions
    const conversionAt = new Set(Array.from({ length: conversions }, (_, k) => Math.floor((k * total) / conversions) + Math.floor(total / conversions / 2)))
    const work = Array.from({ length: total }, (_, i): "session" | "conversion" => (conversionAt.has(i) ? "conversion" : "session"))
    const items: Array<Item> = []
    let killedAt: number | undefined
    let converterBackAt: number | undefined
    const faults = async () => {
      killedAt = Date.now()
      await Promise.all([servers[0]!.kill("SIGKILL"), cluster.converter.kill("SIGKILL")])
      say(`kill -9: API server 1 and the converter, ${items.length} of ${work.length} items acknowledged`)
      await new Promise((r) => setTimeout(r, 3_000))
      await cluster.converter.restart()
      converterBackAt = Date.now()
      say(`converter started again (${seconds(converterBackAt - killedAt)} after the kill)`)
    }
    let faulted: Promise<void> | undefined
    const running = () =>
      Number(cluster.sql(`SELECT count(*) FROM ${cluster.schema}_jobs.job WHERE state = 'active' AND name IN ('formwright-session', 'formwright-conversion')`)[0]?.[0] ?? 0)
    await pool(work, 4, async (kind, index) => {
      const answer = kind === "session"
        ? await send(servers, index % 2, "/v1/sessions", () => ({
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ form_id: formIds[index % formIds.length], text_info: `First name: Ada ${index}\nLast name: Lovelace\nEmail: ada${index}@example.com\nCity: London` })
        }))
        : await send(servers, index % 2, "/v1/utils/convert", () => ({
          method: "POST",
          headers: { "content-type": "application/pdf" },
          body: Buffer.from(flats[index % flats.length]!)
        }))
      const expected = kind === "session" ? 202 : 200
      if (answer.status !== expected) throw new Error(`${kind} ${index}: ${answer.status} ${JSON.stringify(answer.body)}`)
      items.push({ kind, id: kind === "session" ? answer.body.session_id : answer.body.job_id, via: answer.via, at: Date.now() })
      // Mid-run: a third acknowledged, and jobs running (on either server) for the kill to interrupt.
      if (faulted === undefined && items.length >= Math.ceil(work.length / 3) && (running() >= 2 || items.length === work.length)) faulted = faults()
    })
    await faulted
    const allAcknowledged = Date.now()
    say(`${items.length} items acknowledged in ${seconds(allAcknowledged - ready)} (${items.filter((i) => i.via === 0).length} by server 1, ${items.filter((i) => i.via === 1).length} by server 2)`)

    // Every item polled to its end on the surviving server.
    const statusPath = (item: Item) => (item.kind === "session" ? `/v1/sessions/${item.id}` : `/v1/utils/convert/${item.id}/status`)
    const finalStatus = new Map<string, { status: string; at: number; body: any }>()
    const deadline = Date.now() + 300_000
    while (finalStatus.size < items.length && Date.now() < deadline) {
      await pool(items.filter((item) => !finalStatus.has(item.id)), 8, async (item) => {
        const answer = await send(servers, 1, statusPath(item))
        if (answer.status === 200 && (answer.body.status === "completed" || answer.body.status === "failed")) {
          finalStatus.set(item.id, { status: answer.body.status, at: Date.now(), body: answer.body })
        }
      })
      if (finalStatus.size < items.length) await new Promise((r) => setTimeout(r, 500))
    }
    const allDone = Date.now()
    say(`all items finished ${seconds(allDone - killedAt!)} after the kill (${seconds(allDone - ready)} after the start of the load)`)
    for (const item of items) {
      const status = finalStatus.get(item.id)?.status ?? "unfinished"
      check(status === "completed", `${item.kind} ${item.id} ended ${status}${status === "failed" ? `: ${finalStatus.get(item.id)!.body.error_message}` : ""}`)
    }

    // Exactly one pg-boss job per item, completed; and how long the killed server's jobs waited.
    const jobs = cluster.sql(`SELECT singleton_key, state, retry_count, extract(epoch from started_on) * 1000 FROM ${cluster.schema}_jobs.job WHERE name IN ('formwright-session', 'formwright-conversion')`)
    for (const item of items) {
      const mine = jobs.filter((row) => row[0] === item.id)
      check(mine.length === 1 && mine[0]![1] === "completed", `${item.kind} ${item.id}: pg-boss jobs ${JSON.stringify(mine.map((row) => row[1]))}, expected one completed`)
    }
    const retried = jobs.filter((row) => Number(row[2]) > 0)
    const takeovers = retried.map((row) => Number(row[3]) - killedAt!).filter((ms) => ms > 0).sort((a, b) => a - b)
    if (takeovers.length > 0) {
      say(`${retried.length} job(s) ran again after the kill; taken over ${seconds(takeovers[0]!)} to ${seconds(takeovers.at(-1)!)} after it`)
      check(takeovers.at(-1)! <= 30_000, `a killed server's job was taken over ${seconds(takeovers.at(-1)!)} after the kill (target: 30 s)`)
    } else {
      say("no job was running on the killed server when it died")
    }

    // Webhooks: one *.completed id per item; the outbox rows of the dead server are sent once their lease ends.
    const completedIds = (item: Item) =>
      new Set(hook.deliveries.filter((d) => d.type === `${item.kind}.completed` && d.data[item.kind === "session" ? "session_id" : "job_id"] === item.id).map((d) => d.id))
    const hookDeadline = Date.now() + 90_000
    while (items.some((item) => completedIds(item).size === 0) && Date.now() < hookDeadline) await new Promise((r) => setTimeout(r, 500))
    const eventsDone = Date.now()
    for (const item of items) {
      const ids = completedIds(item)
      check(ids.size === 1, `${item.kind} ${item.id}: ${ids.size} distinct ${item.kind}.completed event ids`)
    }
    const failedEvents = hook.deliveries.filter((d) => d.type.endsWith(".failed"))
    check(failedEvents.length === 0, `${failedEvents.length} *.failed events`)
    check(hook.deliveries.every((d) => d.signed), "a webhook was not signed with the secret")
    const completedDeliveries = hook.deliveries.filter((d) => d.type.endsWith(".completed"))
    const redelivered = completedDeliveries.length - new Set(completedDeliveries.map((d) => d.id)).size
    say(`webhooks: ${completedDeliveries.length} *.completed deliveries, ${new Set(completedDeliveries.map((d) => d.id)).size} distinct ids (${redelivered} repeated deliveries of an id), all in by ${seconds(eventsDone - killedAt!)} after the kill`)

    // No acknowledged record lost, and polling works from either server: the killed one again.
    await servers[0]!.restart()
    say(`API server 1 started again on ${servers[0]!.url}`)
    await pool(items, 8, async (item) => {
      const answers = await Promise.all(servers.map((server) => server.call(statusPath(item)).then(async (r) => ({ status: r.status, body: await r.json() }))))
      check(
        answers.every((a) => a.status === 200 && a.body.status === "completed"),
        `${item.kind} ${item.id} reads ${answers.map((a) => `${a.status}/${a.body.status}`).join(" and ")} on the two servers`
      )
    })
    for (const [index, server] of servers.entries()) {
      const listed = await (await server.call("/v1/forms?size=100")).json()
      const ids = new Set<string>((listed.forms ?? []).map((f: { id: string }) => f.id))
      check(formIds.every((id) => ids.has(id)), `server ${index + 1} does not list every uploaded form`)
    }

    say(`${failures.length === 0 ? "PASSED" : "FAILED"} in ${seconds(Date.now() - began)} (setup ${seconds(ready - began)}, load to last item finished ${seconds(allDone - ready)})`)
    for (const failure of failures.slice(0, 40)) say(`  - ${failure}`)
    if (failures.length > 0) {
      say(`--- API server 2 (last lines) ---\n${servers[1]!.output().slice(-4000)}`)
    }
    return failures.length === 0 ? 0 : 1
  } finally {
    await cluster.stop()
    hook.close()
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    say(`FAILED: ${error instanceof Error ? error.stack ?? error.message : String(error)}`)
    process.exit(1)
  }
)
