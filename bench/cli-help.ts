/**
 * How long `formwright --help` and `formwright --version` take, as a user runs them (a new Node
 * process each time): the wall time to exit, and the CPU time the process used, which the load of
 * a shared machine disturbs less than the wall time (Linux: read from /proc, 10 ms ticks).
 *
 *   node bench/cli-help.ts [runs]          (default 10)
 *
 * The target of issue 9: `--help` in under 1 s.
 */
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import * as Path from "node:path"

const bin = Path.resolve(import.meta.dirname, "../packages/http-node/src/bin.ts")
const runs = Number(process.argv[2] ?? 10)

/** CPU time of this process's waited-for children so far, in ms (cutime + cstime of /proc/self/stat). */
const childrenCpuMs = (): number => {
  const stat = readFileSync("/proc/self/stat", "utf8")
  // Fields after the command name (which may hold spaces) start at field 3.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[13]) + Number(fields[14])) * 10
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

for (const args of [["--help"], ["--version"]]) {
  const wall: Array<number> = []
  const cpu: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const cpuBefore = childrenCpuMs()
    const start = performance.now()
    const run = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" })
    wall.push(performance.now() - start)
    cpu.push(childrenCpuMs() - cpuBefore)
    if (run.status !== 0) throw new Error(`formwright ${args.join(" ")} exited ${run.status}: ${run.stderr}`)
  }
  console.log(
    `formwright ${args.join(" ")}: wall median ${median(wall).toFixed(0)} ms (min ${Math.min(...wall).toFixed(0)} ms), ` +
      `CPU median ${median(cpu).toFixed(0)} ms (min ${Math.min(...cpu)} ms), ${runs} runs`
  )
}
