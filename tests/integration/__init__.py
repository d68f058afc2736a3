"""Tests that play games and runs across the layers: matches, tournaments, SPRTs, run
directories, hosting in child processes, engines, dask, Kaggle, reports, the solver against
published sets."""
