/**
 * A client's media type (a Content-Type header, a multipart part's type) as it is stored with a
 * file: bounded and in one spelling, whatever the client sent.
 */

const token = "[a-z0-9][a-z0-9!#$&^_.+-]{0,126}"
const mediaType = new RegExp(`^${token}/${token}$`)

/** `type/subtype` in lower case without parameters; `application/octet-stream` when it is not one. */
export const normalize = (raw: string | undefined): string => {
  const type = (raw ?? "").slice(0, 1_000).split(";")[0]!.trim().toLowerCase()
  return mediaType.test(type) ? type : "application/octet-stream"
}
