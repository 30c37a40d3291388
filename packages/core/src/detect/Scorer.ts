/**
 * The one place that turns a candidate's evidence (its source, its features, its label) into a
 * confidence in [0, 1]. Zero means "not a field": the pipeline drops it before naming.
 */
import type { Candidate } from "./Candidate.ts"
import { width } from "./Geometry.ts"
import type * as Labels from "./Labels.ts"

/** Beyond this gap (points) a same-line label is likely someone else's. */
const FAR_LABEL = 120

export const score = (candidate: Candidate, label: Labels.Label | undefined, pageWidth: number): number => {
  const length = width(candidate.rect)
  const f = candidate.features
  let c: number
  switch (candidate.source) {
    case "underscore":
      c = label?.position === "left" ? 0.9 : label ? 0.75 : 0.45
      if (length < 30) c -= 0.1
      break
    case "rule":
      // A long rule with no words near it is a separator between sections; three or more
      // stacked at an even pitch are ruled paper for an answer.
      if (!label && length > 0.4 * pageWidth && !candidate.multiline) return 0
      c = label?.position === "left" ? 0.8 : label?.position === "above" ? 0.65 : label ? 0.6 : 0.35
      if (length < 50) c -= 0.15
      if (f.dashed) c -= 0.15
      break
    case "box":
    case "cell":
      if (f.valueInside) c = label?.position === "left" ? 0.65 : 0
      else c = label?.position === "left" ? 0.75 : label ? 0.65 : 0.4
      if (f.shadedOnly) c -= 0.1
      if (candidate.multiline) c -= 0.1
      break
    case "comb":
      c = label ? 0.8 : 0.6
      break
    case "checkbox":
      c = label?.position === "right" ? 0.8 : label ? 0.7 : 0.4
      break
    case "glyph":
      c = label?.position === "right" ? 0.75 : label ? 0.6 : 0.3
      break
  }
  if (label && (label.position === "left" || label.position === "right") && label.distance > FAR_LABEL) c -= 0.1
  return Math.round(Math.min(1, Math.max(0, c)) * 100) / 100
}

/** An unlabelled line continuing a labelled one above it ("Address: ____" then "____"). */
export const continuationScore = (candidate: Candidate): number => (candidate.source === "underscore" ? 0.6 : 0.55)
