"""What a Coq re-check trusts: the statement of each certificate in Coq, written from the claim's obligation.

`terms` turns checked trees into Coq terms, `statements` writes the `Definition`s and `Theorem`s (with the
prelude's named definitions), `certificate` and `claims` build each certificate's problem from the registry's
obligations or the embedded claim, `model_tree` the model's rates at exact data, `model_claims` a model claim's
terms over them, `run` compiles with coqc.
The proofs are not trusted (coqc checks them): they are written outside the kernel, by `certificates.coq`.
"""
