-- A voter may say why they reject (the vote page's reason field): kept with the current vote and in
-- the audit trail, shown on the console's unit page and in `status --json`. Empty when none was given.
ALTER TABLE votes ADD COLUMN reason text NOT NULL DEFAULT '';
ALTER TABLE vote_events ADD COLUMN reason text NOT NULL DEFAULT '';
