"""A lesson's text as Qt rich text: paragraphs, lists, emphasis, code, and formulas that read like a book.

Qt-free. The markup is a small part of Markdown: a blank line between paragraphs, ``- `` for a
list item, ``**bold**``, ``*italic*``, ```code```. Between ``$`` signs is a formula, set the
way a textbook sets one: names in italics with their digits as subscripts (``t1`` → *t*₁),
numbers and function names upright, ``*`` as a centred dot, ``-`` as a minus sign, ``^x`` or
``^(...)`` raised, ``_x`` or ``_(...)`` lowered, ``->`` an arrow, ``<=`` ``>=`` ``!=`` ``~=``
as ≤ ≥ ≠ ≈. Numbers from the engine (``{a.grad}``) are put in before (see `lesson.with_numbers`).
"""

from __future__ import annotations

import re
from html import escape

FUNCTIONS = {"tanh", "exp", "log", "ln", "sigmoid", "relu", "sin", "cos", "abs", "sum", "max", "min", "mean",
             "grad", "sign", "softmax", "loss"}
GREEK = {"sigma": "σ", "partial": "∂", "delta": "δ", "Delta": "Δ", "eta": "η", "alpha": "α", "beta": "β",
         "theta": "θ", "lambda": "λ", "Sigma": "Σ"}
OPERATORS = {"->": " → ", "<-": " ← ", "<=": " ≤ ", ">=": " ≥ ", "!=": " ≠ ", "~=": " ≈ ", "*": " · ",
             "×": " × ", "+": " + ", "=": " = ", "/": "/\u2060", "-": " − ", "−": " − ", ",": ", ", "(": "(", ")": ")",
             "|": "|", "·": " · ", "[": "[", "]": "]"}
FORMULA_STYLE = "font-family: 'DejaVu Serif', 'Times New Roman', serif; font-size: 110%;"
NO_BREAK_SPACE = "\u00a0"
WORD_JOINER = "\u2060"  # where a line may break otherwise: after a slash (in OPERATORS), before a script

# A name is letters, each with any accents that follow it (the combining dot of L̇, the precomposed ṫ of ṫ1):
# the accent is kept with its letter, inside the italics, or Qt draws it on nothing and it is lost.
_TOKEN = re.compile(r"(?P<number>\d+(?:\.\d+)?(?:e[+-]?\d+)?)|(?P<name>(?:[^\W\d_][\u0300-\u036f]*)+)(?P<index>\d*)"
                    r"|(?P<operator>->|<-|<=|>=|!=|~=|[-+*/=(),|·×−\[\]])|(?P<script>[\^_])|(?P<space>\s+)|(?P<other>.)")
_INLINE = re.compile(r"`([^`]+)`|\$([^$]+)\$|\*\*(.+?)\*\*|\*(.+?)\*")


def to_html(text: str) -> str:
    """The whole text: paragraphs and lists as rich text."""
    blocks, current = [], []
    for line in text.split("\n"):
        if line.strip():
            current.append(line.strip())
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    html = []
    for block in blocks:
        if all(line.startswith("- ") for line in block):
            items = "".join(f"<li>{inline(line[2:])}</li>" for line in block)
            html.append(f"<ul style='margin-top:0; margin-bottom:6px'>{items}</ul>")
        else:
            html.append(f"<p>{inline(' '.join(block))}</p>")
    return "".join(html)


def inline(text: str) -> str:
    """One paragraph's words: emphasis, code and formulas; everything else escaped."""
    out, last = [], 0
    for match in _INLINE.finditer(text):
        out.append(escape(text[last:match.start()]))
        code, formula, bold, italic = match.groups()
        if code is not None:
            out.append(f"<code>{escape(code)}</code>")
        elif formula is not None:
            out.append(formula_html(formula))
        elif bold is not None:
            out.append(f"<b>{inline(bold)}</b>")
        else:
            out.append(f"<i>{inline(italic)}</i>")
        last = match.end()
    out.append(escape(text[last:]))
    return "".join(out)


def formula_html(formula: str) -> str:
    """One formula as rich text (see the module docstring), kept on one line: a narrow panel wraps the
    words around it, never the formula itself."""
    tokens = [(_kind(m), m) for m in _TOKEN.finditer(formula.strip())]
    body = _render(tokens).replace("  ", " ").replace(" ", NO_BREAK_SPACE)  # the tags inside have no spaces
    for script in ("<sub>", "<sup>"):  # a change of font is a place to break as well
        body = body.replace(script, WORD_JOINER + script)
    return f"<span style=\"{FORMULA_STYLE}\">{body}</span>"


def _kind(match: re.Match) -> str:
    return next(kind for kind in ("number", "name", "operator", "script", "space", "other")
                if match.group(kind) is not None)


def _render(tokens: list) -> str:
    out, i = [], 0
    previous = None  # the kind of the last token that printed something: for a unary minus
    while i < len(tokens):
        kind, match = tokens[i]
        if kind == "script":
            body, i = _script_body(tokens, i + 1)
            tag = "sup" if match.group() == "^" else "sub"
            out.append(f"<{tag}>{body}</{tag}>")
            previous = "atom"
            continue
        if kind == "number":
            out.append(match.group())
            previous = "atom"
        elif kind == "name":
            out.append(_name(match.group("name"), match.group("index")))
            previous = "atom"
        elif kind == "operator":
            symbol = match.group()
            if symbol in "-−" and previous in (None, "operator"):
                out.append("−")  # unary minus: no spaces around it
            else:
                out.append(OPERATORS[symbol])
            previous = "atom" if symbol in ")]|" else "operator"
        elif kind == "other":
            out.append(escape(match.group()))
            previous = "atom"
        i += 1
    return "".join(out).strip()


def _script_body(tokens: list, i: int) -> tuple[str, int]:
    """What follows ``^`` or ``_``: a parenthesised group (without its parentheses) or one token."""
    if i >= len(tokens):
        return "", i
    kind, match = tokens[i]
    if kind == "operator" and match.group() == "(":
        depth, j = 0, i
        while j < len(tokens):
            text = tokens[j][1].group()
            depth += text == "("
            depth -= text == ")"
            if depth == 0:
                break
            j += 1
        return _render(tokens[i + 1:j]), j + 1
    if kind == "operator" and match.group() in "-−" and i + 1 < len(tokens):
        return "−" + _render(tokens[i + 1:i + 2]), i + 2
    return _render(tokens[i:i + 1]), i + 1


def _name(letters: str, index: str) -> str:
    if letters in GREEK:
        text = GREEK[letters]
    elif letters in FUNCTIONS:
        text = letters  # upright, as function names are set
    else:
        text = f"<i>{escape(letters)}</i>"
    return text + (f"<sub>{index}</sub>" if index else "")
