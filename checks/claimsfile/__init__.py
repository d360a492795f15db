"""Claims files: deciding the claims users state in TOML (the reader itself is `headflow.certificates.claims`).

`identity_decider`, `constant_decider`, `inequality_decider`, `dynamics_decider` (kind -> decider in `deciders`);
`register`: a fresh registry for the ordinary runner and report (`headflow check`).
"""
