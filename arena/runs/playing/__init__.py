"""Games played into a run directory: one game, the fused game loop, a worker's batch, the
pool of workers, native crashes reported, the runner and progress bars."""
