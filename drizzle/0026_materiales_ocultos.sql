-- The hidden materials, few, found without reading the others (issue 36, decision 0082): the
-- curriculum map counts what every reader sees as all of an area's materials (from indexes alone)
-- less the hidden ones.
CREATE INDEX "materiales_ocultos_idx" ON "materiales" USING btree ("id") WHERE "materiales"."oculto";
