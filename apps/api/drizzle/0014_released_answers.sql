CREATE TABLE "released_answers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "released_answers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"dataset" text NOT NULL,
	"kind" text NOT NULL,
	"reference" text,
	"user_id" uuid,
	"person_count" integer NOT NULL,
	"sketch" jsonb NOT NULL,
	"result" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "released_answers_dataset_count_idx" ON "released_answers" USING btree ("dataset","person_count");