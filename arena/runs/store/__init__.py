"""The run directory: its files by name, the typed meta.json, games.csv's rows and their
checks against the plan, the lock, the summary, and a run opened for reading."""
