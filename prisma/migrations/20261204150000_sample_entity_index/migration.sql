-- Samples by entity: the release's known-split entities (an EXISTS over "Sample" per entity,
-- lib/domain/scoring/load-gold.ts) and the cascade from "Entity" otherwise scan every stored sample.
CREATE INDEX "Sample_entityId_idx" ON "Sample"("entityId");
