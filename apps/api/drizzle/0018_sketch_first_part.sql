ALTER TABLE "released_answers" ADD COLUMN "sketch_first_part" integer[];--> statement-breakpoint
UPDATE "released_answers" SET "sketch_first_part" = ARRAY(
	SELECT CASE
		WHEN i < 128 THEN ("sketch"->'counts'->>i)::integer
		ELSE (CASE WHEN m >= 2147483648 THEN m - 4294967296 ELSE m END)::integer
	END
	FROM generate_series(0, 255) AS i,
		LATERAL (SELECT ((("sketch"->'keySums'->>(i - 128))::numeric % 4294967296) + 4294967296) % 4294967296 AS m) AS key_sum
	ORDER BY i
);--> statement-breakpoint
ALTER TABLE "released_answers" ALTER COLUMN "sketch_first_part" SET NOT NULL;
