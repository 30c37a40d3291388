/**
 * Core records in their wire shape.
 */
import type { Form, Profile, Session } from "@formwright/core"

export const formDefinition = (form: Form.Form) => ({
  id: form.id,
  object: "form" as const,
  file_name: form.file_name,
  pages: form.pages,
  processed: form.processed,
  as_text: form.as_text,
  ...(form.form_url !== undefined ? { form_url: form.form_url } : {}),
  fields: form.fields,
  group_instructions: form.group_instructions,
  line_by_line_instructions: form.line_by_line_instructions,
  created: form.created,
  updated: form.updated
})

export const profile = (p: Profile.Profile) => ({
  name: p.name,
  userId: p.userId,
  status: p.status,
  created: p.created,
  updated: p.updated,
  idInternal: p.idInternal,
  files: p.files,
  data: p.data
})

export const session = (s: Session.Session) => ({
  id: s.id,
  object: "session" as const,
  session_id: s.id,
  form_id: s.form_id,
  status: s.status,
  created: s.created,
  updated: s.updated
})
