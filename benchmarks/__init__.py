"""Performance measurements, printed as ratios against a baseline run in the same process (not tests)."""
