/** The server's version, as /health reports it. */
export const version = "0.1.0"
