"""The deciding side: interval covers, SMT, witnesses, certified roots and constants (none of it trusted)."""
