-- The listings table of examples/scheduled-mls-enhance.json (the same statement as its sticky note).
CREATE TABLE listing_photos (
  media_key text PRIMARY KEY,
  listing_key text NOT NULL,
  media_modified_at timestamptz NOT NULL,
  source_url text NOT NULL,
  status text NOT NULL,
  result_url text,
  task_id text,
  credits integer NOT NULL,
  error text,
  enhanced_at timestamptz NOT NULL
);
