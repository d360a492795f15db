"""What a Coq re-check trusts: the statement of each certificate in Coq, written from the claim's obligation.

`statements` turns checked trees into Coq terms, writes the `Definition`s and `Theorem`s (with the
prelude's named definitions) and holds a proof's sentences to them, `certificate` builds each certificate's problem
from its core statement once the kernel's check of it passes, `model_tree` states the model's quantities and a model
claim's terms through the one chain of definitions (`certificates.kernel.model_chain`), `run` compiles with coqc and
admits only Coq's standard axioms.
The proofs are not trusted (coqc checks them): they are written outside the kernel, by `headflow.certificates.coq`.
"""
