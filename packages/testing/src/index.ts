export * as MemoryStorage from "./MemoryStorage.ts"
export * as StorageConformance from "./StorageConformance.ts"
export * as Fixtures from "./Fixtures.ts"
export * as FlatFixtures from "./FlatFixtures.ts"
