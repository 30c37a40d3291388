/**
 * `@formwright/core/pdf`: the PDF engine alone, without storage or services, in the calling
 * thread. A subpath of its own so that importing `@formwright/core` (what a server process does,
 * handing PDF work to `PdfEngine` workers) does not load pdf.js and pdf-lib.
 */
export * as FormFiller from "./FormFiller.ts"
export * as FormReader from "./FormReader.ts"
export * as PageText from "./PageText.ts"
