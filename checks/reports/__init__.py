"""Reports in every format (terminal, JSON, markdown, HTML with MathML) and their figures."""
