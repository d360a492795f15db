"""Float evidence and its rigorous follow-up: case loops, adversarial search, witnesses, fits, limits, equilibria."""
