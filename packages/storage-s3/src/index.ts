/**
 * @formwright/storage-s3: the Storage port on any S3-compatible store, for many servers on one bucket.
 */
export * as S3Storage from "./S3Storage.ts"
