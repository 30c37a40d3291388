/** Types for `subset-font` (the package ships none): the options FontSubset.ts uses. */
declare module "subset-font" {
  interface SubsetOptions {
    readonly targetFormat?: "sfnt" | "woff" | "woff2" | "truetype"
    readonly keepFeatures?: ReadonlyArray<string>
    readonly noLayoutClosure?: boolean
  }
  export default function subsetFont(font: Buffer, text: string, options?: SubsetOptions): Promise<Buffer>
}
