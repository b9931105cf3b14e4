"""The rule-base reference (docs/reference/): every exported predicate of prolog/*.pl with its PlDoc comment.

A small extractor rather than SWI-Prolog's doc_files/2: it reads the
`:- module(Name, [...])` export list, the `/** <module> Title` comment and the
`%!` comment blocks, and writes one Markdown page per rule base plus an
index, so the reference reads on any Git host and is byte-for-byte
reproducible. `python -m pysolve.pldoc [FOLDER]` writes it (default:
docs/reference beside prolog/); the test suite checks it is current.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pysolve.paths import rule_base_dir

MODULE = re.compile(r"^:-\s*module\(\s*(?P<name>\w+)\s*,\s*\[(?P<exports>.*?)\]\s*\)\s*\.", re.M | re.S)
MODULE_DOC = re.compile(r"^/\*\*\s*<module>\s*(?P<title>[^\n]*)\n(?P<body>.*?)\*/", re.M | re.S)
REEXPORT = re.compile(r"^:-\s*reexport\(\s*(?P<module>\w+)\s*,\s*\[(?P<exports>.*?)\]\s*\)\s*\.", re.M | re.S)
EXPORT = re.compile(r"(?P<name>[a-z]\w*|'[^']+')\s*/\s*(?P<arity>\d+)")
HEAD = re.compile(r"^%!\s*(?P<head>.*\S)\s*$")


@dataclass
class Predicate:
    """An exported predicate and its PlDoc comment (head lines and body)."""

    name: str
    arity: int
    heads: list[str] = field(default_factory=list)
    body: str = ""

    @property
    def indicator(self) -> str:
        """name/arity."""
        return f"{self.name}/{self.arity}"


@dataclass
class RuleBase:
    """One rule base file: its module, title, module comment and exported predicates."""

    file: str
    module: str
    title: str
    doc: str
    predicates: list[Predicate]

    @property
    def undocumented(self) -> list[str]:
        """The exported predicates that have no `%!` comment."""
        return [p.indicator for p in self.predicates if not p.heads]


def head_indicator(head: str) -> str:
    """`name/arity` of a PlDoc head such as `tiling(+Strategy, -Tiling) is det.`."""
    match = re.match(r"(?P<name>[a-z]\w*|'[^']+')\s*(?P<args>\(.*)?", head)
    if match is None:
        return head
    depth, commas, empty = 0, 0, True
    for char in match["args"] or "":
        if char in ")]}":
            depth -= 1
            if depth == 0:
                break
        elif depth == 1 and char == ",":
            commas += 1
        elif depth >= 1 and not char.isspace():
            empty = False
        if char in "([{":
            depth += 1
    return f"{match['name']}/{0 if empty else commas + 1}"


def comments(text: str) -> dict[str, tuple[list[str], str]]:
    """Every `%!` block of a file: indicator -> (head lines, body text)."""
    documented: dict[str, tuple[list[str], str]] = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        heads = []
        while index < len(lines) and (match := HEAD.match(lines[index])):
            head = match["head"]
            index += 1
            while head.count("(") > head.count(")") and index < len(lines) and lines[index].startswith("%"):
                head += " " + re.sub(r"^%!?\s*", "", lines[index]).strip()  # a head continued on the next line
                index += 1
            heads.append(head)
        if not heads:
            index += 1
            continue
        body = []
        while index < len(lines) and lines[index].startswith("%"):
            body.append(re.sub(r"^%( {0,3})", "", lines[index]))
            index += 1
        for head in heads:
            documented.setdefault(head_indicator(head), (heads, "\n".join(body).strip()))
    return documented


def read_rule_base(path: Path) -> RuleBase:
    """The module, module comment and exported predicates (with their comments) of one file."""
    text = path.read_text(encoding="utf-8")
    module = MODULE.search(text)
    if module is None:
        raise ValueError(f"{path.name} is not a module file (no `:- module(Name, [...]).`)")
    exports = re.sub(r"%[^\n]*", "", module["exports"])
    documented = {**reexported(path, text), **comments(text)}
    predicates = []
    for match in EXPORT.finditer(exports):
        predicate = Predicate(match["name"], int(match["arity"]))
        predicate.heads, predicate.body = documented.get(predicate.indicator, ([], ""))
        predicates.append(predicate)
    doc = MODULE_DOC.search(text)
    title, body = (doc["title"].strip(), doc["body"].strip()) if doc else ("", "")
    return RuleBase(path.name, module["name"], title, body, predicates)


def reexported(path: Path, text: str) -> dict[str, tuple[list[str], str]]:
    """The PlDoc comments of the predicates a file reexports.

    The comments of the predicates the file passes on with `:- reexport(Module, [...])`, read from the file
    of Module beside it, each body ending with where the predicate is defined."""
    documented: dict[str, tuple[list[str], str]] = {}
    for declaration in REEXPORT.finditer(text):
        source = path.parent / f"{declaration['module']}.pl"
        if not source.is_file():
            continue
        theirs = comments(source.read_text(encoding="utf-8"))
        for match in EXPORT.finditer(declaration["exports"]):
            indicator = f"{match['name']}/{match['arity']}"
            if indicator in theirs:
                heads, body = theirs[indicator]
                where = f"Defined in [`{declaration['module']}`]({declaration['module']}.md)."
                documented[indicator] = (heads, f"{body}\n\n{where}".strip())
    return documented


def page(rule_base: RuleBase) -> str:
    """The Markdown reference page of one rule base."""
    lines = [f"# `{rule_base.module}` — {rule_base.title or rule_base.file}", "",
             f"Source: [`prolog/{rule_base.file}`](../../prolog/{rule_base.file}). "
             f"Generated by `python -m pysolve.pldoc`; do not edit.", ""]
    if rule_base.doc:
        lines += [rule_base.doc, ""]
    lines += ["| predicate | summary |", "|---|---|"]
    lines += [f"| [`{p.indicator}`](#{anchor(p)}) | {summary(p)} |" for p in rule_base.predicates]
    for predicate in rule_base.predicates:
        lines += ["", f"## {predicate.indicator}", ""]
        if predicate.heads:
            lines += ["```prolog", *predicate.heads, "```", ""]
        lines.append(predicate.body or "*(no PlDoc comment)*")
    return "\n".join(lines) + "\n"


def anchor(predicate: Predicate) -> str:
    """The Markdown heading anchor of a predicate's section (GitHub style)."""
    return re.sub(r"[^a-z0-9_-]", "", predicate.indicator.lower())


def summary(predicate: Predicate) -> str:
    """The first sentence of a predicate's comment, on one line."""
    paragraph = re.split(r"\n\s*\n|\n\s*- ", predicate.body, maxsplit=1)[0]
    text = " ".join(paragraph.split())
    first = re.split(r"(?<=\.)\s", text, maxsplit=1)[0] if text else "*(no PlDoc comment)*"
    return first.replace("|", "\\|")


def index(rule_bases: list[RuleBase]) -> str:
    """The Markdown index of every rule base."""
    lines = ["# Rule-base reference", "",
             "Every exported predicate of the rule bases in `prolog/`, with its PlDoc comment.",
             "Generated by `python -m pysolve.pldoc`; `tests/test_prolog_reference.py` checks it is current.", "",
             "| rule base | what | exported |", "|---|---|---|"]
    lines += [f"| [`{r.module}`]({r.module}.md) | {r.title} | {len(r.predicates)} |" for r in rule_bases]
    return "\n".join(lines) + "\n"


def reference(folder: Path | None = None) -> dict[str, str]:
    """File name -> Markdown text of the whole reference, for the rule bases in `folder` (default: shipped)."""
    rule_bases = [read_rule_base(path) for path in sorted((folder or rule_base_dir()).glob("*.pl"))]
    pages = {f"{r.module}.md": page(r) for r in rule_bases}
    return {"index.md": index(rule_bases), **pages}


def write(out: Path) -> list[Path]:
    """Write the reference into `out` (made if missing), removing pages of rule bases that are gone."""
    out.mkdir(parents=True, exist_ok=True)
    pages = reference()
    for stale in {p.name for p in out.glob("*.md")} - set(pages):
        (out / stale).unlink()
    written = []
    for name, text in pages.items():
        (out / name).write_text(text, encoding="utf-8")
        written.append(out / name)
    return written


def default_folder() -> Path:
    """docs/reference beside the prolog/ folder of a checkout."""
    return rule_base_dir().parent / "docs" / "reference"


def main(argv: list[str] | None = None) -> int:
    """Write the reference (into the folder given, else docs/reference) and list the files."""
    args = sys.argv[1:] if argv is None else argv
    for path in write(Path(args[0]) if args else default_folder()):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
