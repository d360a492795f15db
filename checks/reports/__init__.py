"""Reports in every format (terminal, JSON, markdown, HTML with MathML), their figures and progress bars."""
