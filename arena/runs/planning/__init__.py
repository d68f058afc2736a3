"""What a run will play, decided before any game: the run request and the charts it asks for,
the plan of every game, the openings and the seeds."""
