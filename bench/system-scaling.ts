/**
 * Two API servers against one, on the whole-system setup (issue 10's target: two servers give
 * at least 1.7x the sessions per minute of one):
 *
 *   node bench/system-scaling.ts [sessions] [in flight]      (defaults: 240 sessions, 8 at a time)
 *
 * One deployment (scripts/system/Cluster.ts: PostgreSQL, Ceph RGW, a converter service, API
 * servers on PostgreSQL + S3) starts with one API server; `sessions` autofill sessions over small
 * corpus forms are created through it, `in flight` at a time, and timed from the first request to
 * the last session completed. Then a second API server joins the same deployment and the same
 * number of sessions is sent, alternating between the two; then it leaves again. Three such pairs
 * of rounds (BENCH_ROUNDS), so that a busy spell of the machine does not land on one side only;
 * each round is preceded by a few sessions that warm the PDF workers up (they start on first use).
 * Printed: each round, the medians in sessions per minute, and their ratio.
 *
 * A session's work (reading the form, filling, saving the PDF) runs in the PDF worker processes of
 * whichever server's pg-boss worker took the job (FORMWRIGHT_PDF_WORKERS, by default the cores
 * available, at least 2): on one machine, two servers add workers but not cores, so the ratio says
 * how much of a session is CPU on that machine rather than what separate machines would give.
 * `BENCH_PDF_WORKERS=n` gives every API server n PDF workers (FORMWRIGHT_PDF_WORKERS); a server
 * keeps one of them for requests, so with the default two a server runs background work on one.
 */
import * as Os from "node:os"
import * as Cluster from "../scripts/system/Cluster.ts"
import { pool, send, smallForms } from "../scripts/system/Load.ts"

const sessionCount = Number(process.argv[2] ?? 240)
const inFlight = Number(process.argv[3] ?? 8)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const say = (line: string) => process.stdout.write(`${line}\n`)

const main = async () => {
  const lacking = Cluster.missing()
  if (lacking !== undefined) throw new Error(`this benchmark needs ${lacking}`)
  const workers = process.env.BENCH_PDF_WORKERS
  const cluster = await Cluster.start({
    apiServers: 1,
    apiEnv: workers ? { FORMWRIGHT_PDF_WORKERS: workers } : {},
    say: (line) => say(`[system] ${line}`)
  })
  try {
    const servers = [...cluster.api]
    const pdfs = smallForms(3)
    const formIds: Array<string> = []
    for (const pdf of pdfs) {
      const answer = await send(servers, 0, "/v1/forms/upload", () => ({ method: "POST", headers: { "content-type": "application/pdf" }, body: Buffer.from(pdf) }))
      if (answer.status !== 200) throw new Error(`upload: ${answer.status} ${JSON.stringify(answer.body)}`)
      formIds.push(answer.body[0].form_id)
    }

    /** `count` sessions through `servers` in turn, `inFlight` at a time; ms from the first request to the last completion. */
    const round = async (count: number) => {
      const began = Date.now()
      const ids = await pool(Array.from({ length: count }, (_, i) => i), inFlight, async (i) => {
        const answer = await send(servers, i % servers.length, "/v1/sessions", () => ({
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ form_id: formIds[i % formIds.length], text_info: `First name: Ada ${i}\nLast name: Lovelace\nEmail: ada${i}@example.com` })
        }))
        if (answer.status !== 202) throw new Error(`session: ${answer.status} ${JSON.stringify(answer.body)}`)
        const id: string = answer.body.session_id
        // Polled where it was created, as a client would.
        for (;;) {
          const status = await send(servers, answer.via, `/v1/sessions/${id}`)
          if (status.body?.status === "completed") return id
          if (status.body?.status === "failed") throw new Error(`session ${id} failed: ${status.body.error_message}`)
          await new Promise((r) => setTimeout(r, 50))
        }
      })
      return { ms: Date.now() - began, ids }
    }

    const perMinute = (ms: number) => (sessionCount / ms) * 60_000
    const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    // The second server is started once (its tables and queues exist already), then stopped and
    // started again around each two-server round: one-server rounds run with it gone, since a
    // running server takes jobs from the shared queues whoever was asked.
    const second = await cluster.startApi()
    await second.stop()
    const one: Array<number> = []
    const two: Array<number> = []
    for (let r = 0; r < rounds; r++) {
      servers.splice(1)
      await round(4)
      one.push((await round(sessionCount)).ms)
      say(`round ${r + 1}, one API server:  ${sessionCount} sessions in ${(one.at(-1)! / 1000).toFixed(1)} s = ${perMinute(one.at(-1)!).toFixed(1)} sessions/min`)
      await second.restart()
      servers.push(second)
      await round(8)
      two.push((await round(sessionCount)).ms)
      say(`round ${r + 1}, two API servers: ${sessionCount} sessions in ${(two.at(-1)! / 1000).toFixed(1)} s = ${perMinute(two.at(-1)!).toFixed(1)} sessions/min`)
      await second.stop()
    }
    const [oneMs, twoMs] = [median(one), median(two)]
    say(`median of ${rounds} rounds: one API server ${perMinute(oneMs).toFixed(1)} sessions/min, two API servers ${perMinute(twoMs).toFixed(1)} sessions/min`)
    say(`ratio two/one: ${(oneMs / twoMs).toFixed(2)}x (target >= 1.7x; ${Os.availableParallelism()} cores on this machine, load average ${Os.loadavg()[0]!.toFixed(1)}, ${inFlight} sessions in flight, ${workers ?? "default"} PDF workers per server)`)
  } finally {
    await cluster.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
