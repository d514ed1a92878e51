ALTER TABLE "cohort_versions" ADD COLUMN "definition" jsonb;--> statement-breakpoint
ALTER TABLE "cohorts" ADD COLUMN "published_version" integer;--> statement-breakpoint
-- Cohorts published before each version was reviewed: their current version is the published one.
UPDATE "cohorts" SET "published_version" = "version" WHERE "published_at" IS NOT NULL;--> statement-breakpoint
-- Each version's criteria: the tree of the run it was made from, else the source query's tree when
-- that query is still at the version the snapshot used. Concept names are looked up when shown.
UPDATE "cohort_versions" v SET "definition" = jsonb_build_object('query', e."query", 'concept_names', '{}'::jsonb)
FROM "query_executions" e WHERE v."execution_id" = e."id";--> statement-breakpoint
UPDATE "cohort_versions" v SET "definition" = jsonb_build_object('query', q."query", 'concept_names', '{}'::jsonb)
FROM "cohorts" c JOIN "queries" q ON q."id" = c."query_id"
WHERE v."cohort_id" = c."id" AND v."definition" IS NULL AND q."version" = v."query_version";
