"""Parameter sweeps: pure per-point tasks, a resumable runner on dask.distributed, and plots."""
