import { MemoryStorage, StorageConformance } from "@formwright/testing"

StorageConformance.run("memory", { layer: MemoryStorage.layer, capabilities: { crossProcessConsistency: false } })
