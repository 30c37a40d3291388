export * as FsStorage from "./FsStorage.ts"
