"""The ladder: ratings on a fixed scale across runs, anchored from random up to perfect play,
kept in an SQLite file (store), fed by finished runs (adding), fixed by reference agents
(anchors), fitted with the anchors held (fit), updated incrementally by OpenSkill (skill), read
as tables (tables) and written out (leaderboard)."""
