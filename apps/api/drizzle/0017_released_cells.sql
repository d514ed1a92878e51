ALTER TABLE "released_answers" ALTER COLUMN "result" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "released_answers" ADD COLUMN "cell" jsonb;