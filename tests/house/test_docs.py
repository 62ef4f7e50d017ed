"""The documentation stays true to the tree: no issue numbers, the design cited where it lives, links
that lead somewhere, and a generated page that says it is generated.

An issue number means nothing to a reader outside the tracker: a name, a docstring or a comment says
the behaviour (or quotes the rulebook) instead. The design is ``docs/design.md``; code and pages cite
it with the section's title, which must be one of its headings (or a paragraph's bold title).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from bench.__main__ import GENERATED, write_markdown

ROOT = Path(__file__).resolve().parents[2]

#: the text files of the tree that a reader (or a test) reads
TEXT = {".py", ".md", ".html", ".js", ".css", ".sh", ".toml", ".txt", ".json", ".jsonl", ".po", ".pot",
        ".service", ".cfg", ".ini", ".yml", ".yaml", ".rules", ".conf"}
#: what is not ours (the rulebooks are kept unchanged) or not source at all
SKIPPED = {".git", ".venv", "seeds", "node_modules", "build", "dist", "__pycache__", ".mypy_cache",
           ".pytest_cache", ".ruff_cache"}

#: « issue N », « issues N and M », « issue-N », « issueN », « Issue #N », « (#N) », N a number
ISSUE_NUMBER = re.compile(r"(?<![a-z])issues?[ _-]?#?\d|\(#\d+\)", re.IGNORECASE)


@functools.cache
def tree_files() -> list[Path]:
    """Every text file of the tree but this one (whose examples show what the checks catch); walked once
    per test process, each check reading the same list."""
    found = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if any(part in SKIPPED or part.endswith(".egg-info") for part in rel.parts):
            continue
        if path.is_file() and (path.suffix in TEXT or path.name == "Makefile") and path != Path(__file__):
            found.append(path)
    return found


@functools.cache
def tree_text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def test_no_issue_number_in_the_trees_code_docs_or_tests() -> None:
    files = tree_files()
    assert len(files) > 300  # the walk really reads the tree
    assert ROOT / "companion" / "engine" / "rules.py" in files and ROOT / "README.md" in files
    found = []
    for path in files:
        rel = path.relative_to(ROOT)
        if ISSUE_NUMBER.search(str(rel)):
            found.append(f"{rel}: its name")
        for number, line in enumerate(tree_text(path).splitlines(), 1):
            if ISSUE_NUMBER.search(line):
                found.append(f"{rel}:{number}: {line.strip()[:120]}")
    assert found == [], "issue numbers (say the behaviour instead):\n" + "\n".join(found)


#: every spelling the check must see, « {n} » standing for the number (written out here, this file would
#: itself be what it forbids)
SPELLINGS = ["see issue {n}", "Issue {n}'s script", "(issues {n}, {n})", "the issue-{n} game",
             "galerapagos_issue{n}_departure.jsonl", "def test_issue_{n}_dial", "fixed (#{n})", "Issue #{n}"]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_the_check_sees_every_spelling_of_an_issue_number(spelling: str) -> None:
    assert ISSUE_NUMBER.search(spelling.format(n=21))
    assert not ISSUE_NUMBER.search(spelling.format(n="N"))  # the placeholder alone is no number


@pytest.mark.parametrize("text", ["the issue's first script", "color: #111", "tissue 3", "no issues found"])
def test_the_check_leaves_words_that_are_no_issue_number(text: str) -> None:
    assert not ISSUE_NUMBER.search(text)


# -- the design ------------------------------------------------------------------------------------

def design_titles() -> set[str]:
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    headings = {m.group(1).strip() for m in re.finditer(r"^#+ (.+)$", text, re.M)}
    # a paragraph's or a bullet's bold title: « **Galèrapagos: the moment to show cards.** When … »
    bold = {m.group(1).strip() for m in re.finditer(r"^(?:- )?\*\*([^*\n]+?)\*\*", text, re.M)}
    return {t.rstrip(".").casefold() for t in headings | bold}


#: « docs/design.md, « The rules contract » », « docs/design.md "Bridge event scripts" », « [design.md](design.md) (« … ») »
CITED_SECTION = re.compile(r"(?:docs/design\.md|\[design\.md\]\(design\.md\))(?:'s)?,? \(?(?:«\s*([^»]+?)\s*»|\"([^\"]+)\")")


def test_the_design_is_in_the_repository_and_nothing_cites_a_design_file_outside_it() -> None:
    assert (ROOT / "docs" / "design.md").is_file()
    outside = [f"{p.relative_to(ROOT)}:{n}" for p in tree_files()
               for n, line in enumerate(tree_text(p).splitlines(), 1)
               if "DESIGN.md" in line or re.search(r"\bDESIGN\b", line)]
    assert outside == []


def test_every_section_of_the_design_that_the_tree_cites_exists() -> None:
    titles = design_titles()
    cited = []
    for path in tree_files():
        for number, line in enumerate(tree_text(path).splitlines(), 1):
            for m in CITED_SECTION.finditer(line):
                cited.append((f"{path.relative_to(ROOT)}:{number}", (m.group(1) or m.group(2)).strip()))
    assert len(cited) >= 10  # the engine's contracts cite their sections
    # a title may be cited by its beginning: « The journal » for « The journal: a game is never lost »
    missing = [f"{where}: « {title} »" for where, title in cited
               if not any(t.startswith(title.casefold()) for t in titles)]
    assert missing == [], "sections cited but not in docs/design.md:\n" + "\n".join(missing)


# -- links -----------------------------------------------------------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(markdown: Path) -> set[str]:
    """The anchors a Markdown page's headings get (GitHub's rule: lower case, punctuation dropped,
    spaces as hyphens)."""
    out = set()
    for m in re.finditer(r"^#+ (.+)$", markdown.read_text(encoding="utf-8"), re.M):
        title = m.group(1).strip().lower()
        out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


@pytest.mark.parametrize("page", ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))])
def test_every_relative_link_of_the_readme_and_docs_leads_somewhere(page: str) -> None:
    source = ROOT / page
    broken = []
    for target in LINK.findall(source.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        resolved = (source.parent / path).resolve() if path else source
        if not resolved.exists():
            broken.append(target)
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(target)
    assert broken == []


def test_the_readme_keeps_its_two_commands_true() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("run", "test"):
        assert f"make {target}" in readme
        assert re.search(rf"^{target}:", makefile, re.M), f"the Makefile has no {target} target"


# -- the generated performance page ---------------------------------------------------------------

def test_the_performance_page_says_it_is_generated_and_links_its_notes_instead_of_pasting_them() -> None:
    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    notes = (ROOT / "docs" / "performance-notes.md").read_text(encoding="utf-8")
    assert GENERATED in page
    assert "](performance-notes.md)" in page
    pasted = [h for h in re.findall(r"^## .+$", notes, re.M) if h in page.splitlines()]
    assert pasted == []


def test_the_generator_writes_the_notice_first_and_no_notes() -> None:
    results = {"x_ms": {"value": 1.0, "unit": "ms", "target": "<= 2", "module": "bench.x", "load_1min": [0.1, 0.2]}}
    run = {"machine": "aarch64", "python": "CPython 3.13.5", "date": "2026-01-01", "cores": 4}
    page = write_markdown(results, {}, run)
    lines = page.splitlines()
    assert lines[0] == "# Performance" and lines[2] == GENERATED
    assert "aarch64 with CPython 3.13.5, 2026-01-01, 4 cores" in page
    assert "| `x_ms` | 1.0 | ms | <= 2 | yes | `python -m bench.x` |" in lines
    assert "Raspberry Pi Zero 2 W" not in page
