/**
 * Log lines written without blocking the event loop.
 *
 * Node writes `process.stdout` synchronously when it is a file or a pipe (what a container's
 * log collector reads), so `console.log` per request line made every request wait for a write
 * system call, and for the reader when a pipe was full. Here lines are gathered for up to
 * `windowMs` (or `batchLines` of them) and handed, together, to a write stream on the same
 * file descriptor, whose writes run on libuv's thread pool. When the server stops, what is buffered
 * is written before the process exits, so the last lines (the shutdown, the last requests)
 * are not lost.
 */
import { Effect, Layer, Logger, References } from "effect"
import * as Fs from "node:fs"

/** How long a line may wait to be handed over: short enough to read a log live. */
const windowMs = 20
const batchLines = 512

/** Buffered bytes past which lines are dropped (and counted) rather than held: a reader that stalls must not exhaust memory. */
const maxBufferedBytes = 64 * 1024 * 1024

export interface Sink {
  readonly write: (line: string) => void
  /** Resolves once everything written so far is out of the process. */
  readonly flush: () => Promise<void>
}

/** A sink on an open file descriptor (1 for stdout), which it leaves open. */
export const makeSink = (fd: number): Sink => {
  const stream = Fs.createWriteStream("", { fd, autoClose: false, emitClose: false })
  let broken = false
  // A closed stdout (EPIPE) loses the log, not the server.
  stream.on("error", () => {
    broken = true
  })
  let lines: Array<string> = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let dropped = 0
  const handOver = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (lines.length === 0 || broken) return
    if (dropped > 0 && stream.writableLength < maxBufferedBytes / 2) {
      lines.push(`level=WARN message="${dropped} log line(s) dropped: the log's reader did not keep up"\n`)
      dropped = 0
    }
    const text = lines.join("")
    lines = []
    stream.write(text)
  }
  // Lines still gathered when the process exits another way (an uncaught error) are written on
  // the spot; a clean stop has flushed them already.
  process.once("exit", () => {
    if (lines.length > 0 && !broken) {
      try {
        Fs.writeSync(fd, lines.join(""))
      } catch {
        // Nowhere left to report it.
      }
    }
  })
  return {
    write: (line) => {
      if (stream.writableLength > maxBufferedBytes) {
        dropped++
        return
      }
      lines.push(line.endsWith("\n") ? line : `${line}\n`)
      if (lines.length >= batchLines) handOver()
      // Unref'd: a pending hand-over does not keep the process alive (the exit hook writes it).
      else if (timer === undefined) timer = setTimeout(handOver, windowMs).unref()
    },
    flush: () =>
      new Promise<void>((resolve) => {
        handOver()
        if (broken || stream.writableLength === 0) return resolve()
        // The callback of an empty write runs once every earlier write is done.
        stream.write("", () => resolve())
      })
  }
}

const textOnly = /^[^\s"=]*$/
const labelOf = (key: string) => key.replace(/[\s="]/g, "_")
const valueOf = (text: string) => (textOnly.test(text) ? text : JSON.stringify(text))
const plain = (value: unknown): string | undefined =>
  typeof value === "string"
    ? value
    : (typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0)) || typeof value === "boolean"
    ? String(value)
    : undefined

/**
 * The line `Logger.formatLogFmt` writes, built directly when the entry holds only text, finite
 * numbers and booleans (a request line does): Effect's general formatter cost about a third
 * of a small request. Anything else (a cause, spans, structured values) goes to Effect's.
 */
export const formatLogFmt = (options: Logger.Options<unknown>): string => {
  const { cause, date, fiber, logLevel, message } = options
  if (cause.reasons.length > 0 || fiber.getRef(References.CurrentLogSpans).length > 0) return Logger.formatLogFmt.log(options)
  let out = `timestamp=${date.toISOString()} level=${logLevel.toUpperCase()} fiber=#${fiber.id}`
  for (const part of Array.isArray(message) ? message : [message]) {
    const text = plain(part)
    if (text === undefined) return Logger.formatLogFmt.log(options)
    out += ` message=${valueOf(text)}`
  }
  const annotations = fiber.getRef(References.CurrentLogAnnotations)
  for (const label in annotations) {
    const text = plain(annotations[label])
    if (text === undefined) return Logger.formatLogFmt.log(options)
    out += ` ${labelOf(label)}=${valueOf(text)}`
  }
  return out
}

/** logfmt lines (as `Logger.consoleLogFmt` writes them) into a sink. */
export const logFmt = (sink: Sink): Logger.Logger<unknown, void> => Logger.make((options) => sink.write(formatLogFmt(options)))

/**
 * Swaps `Logger.consoleLogFmt`, if it is among the loggers in force, for the same lines on
 * stdout written without blocking; other loggers (a test's, a custom one) stay as they are.
 * The sink is flushed when the layer is released, after what it was provided to.
 */
export const layer: Layer.Layer<never> = Layer.effect(
  Logger.CurrentLoggers,
  Effect.gen(function*() {
    const current = yield* Logger.CurrentLoggers
    if (!current.has(Logger.consoleLogFmt)) return current
    const sink = makeSink(1)
    yield* Effect.addFinalizer(() => Effect.promise(sink.flush))
    const loggers = new Set(current)
    loggers.delete(Logger.consoleLogFmt)
    loggers.add(logFmt(sink))
    return loggers
  })
) as Layer.Layer<never>
