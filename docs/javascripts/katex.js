// Typesets the formulas that pymdownx.arithmatex (generic mode) wraps in `.arithmatex` elements as
// \( ... \) and \[ ... \], with the KaTeX bundled under docs/assets/katex: the site loads nothing from
// the network. Only those elements are touched, so a dollar sign in prose stays text.
document$.subscribe(({ body }) => {
  for (const formula of body.querySelectorAll(".arithmatex")) {
    renderMathInElement(formula, {
      delimiters: [
        { left: "\\(", right: "\\)", display: false },
        { left: "\\[", right: "\\]", display: true },
      ],
    });
  }
});
