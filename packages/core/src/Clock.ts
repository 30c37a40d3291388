/** Timestamps as the wire shows them: ISO 8601 in UTC. */
export const nowIso = (): string => new Date().toISOString()
