"""The report rendered as a pull-request comment, a job summary and terminal text."""

from __future__ import annotations

import html
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import jinja2
import pytest
from helpers.reports import (
    BASE_COMMIT,
    HEAD_COMMIT,
    HOSTILE_OTHER,
    HOSTILE_PATH,
    REPO_URL,
    hostile_report,
    large_report,
    no_impact_report,
    partial_report,
    sample_report,
    symbol,
)
from markdown_it import MarkdownIt
from markdown_it.token import Token

from impactbot.errors import ConfigError
from impactbot.model import ChangedSymbol, Param, Signature
from impactbot.render import (
    MARKER,
    SUMMARY_MAX_BYTES,
    RenderOptions,
    make_environment,
    md_cell,
    md_code,
    md_text,
    mermaid_label,
    render_failure_markdown,
    render_markdown,
    render_summary,
    render_text,
)
from impactbot.report import report_to_json

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
LINKED = RenderOptions(repo_url=REPO_URL)

# GitHub-flavoured enough: tables and raw HTML, as GitHub renders comments.
gfm = MarkdownIt("commonmark", {"html": True}).enable("table")


def tokens(markdown: str) -> list[Token]:
    """Every block and inline token, flattened."""
    out: list[Token] = []
    for token in gfm.parse(markdown):
        out.append(token)
        out.extend(token.children or [])
    return out


def tables(markdown: str) -> list[list[list[list[Token]]]]:
    """Each table as its rows, each row as its cells, each cell as its inline tokens."""
    found: list[list[list[list[Token]]]] = []
    in_cell = False
    for token in gfm.parse(markdown):
        if token.type == "table_open":
            found.append([])
        elif token.type == "tr_open":
            found[-1].append([])
        elif token.type in ("th_open", "td_open"):
            in_cell = True
        elif token.type == "inline" and in_cell:
            found[-1][-1].append(token.children or [])
            in_cell = False
    return found


def table(markdown: str, *header: str) -> list[list[list[Token]]]:
    """The body rows of the table with this header."""
    for rows in tables(markdown):
        if [cell[0].content if cell else "" for cell in rows[0]] == list(header):
            return rows[1:]
    raise AssertionError(f"no table with header {header}")


# --------------------------------------------------------------------------- golden

CASES: dict[str, Callable[[], str]] = {
    "impact": lambda: render_markdown(sample_report(), LINKED),
    "no_impact": lambda: render_markdown(no_impact_report(), LINKED),
    "partial": lambda: render_markdown(partial_report()),
    "failure": lambda: render_failure_markdown("Could not find revision 'origin/main'. Does it exist?"),
    "large": lambda: render_markdown(large_report(), LINKED),
}


@pytest.mark.parametrize("name", CASES)
def test_golden(name: str, update_golden: bool) -> None:
    rendered = CASES[name]()
    golden = GOLDEN / f"{name}.md"
    if update_golden:
        golden.write_text(rendered, encoding="utf-8")
    assert rendered == golden.read_text(encoding="utf-8"), f"rerun with --update-golden if {name}.md should change"


# --------------------------------------------------------------- the three states


def test_impact_found_has_the_marker_and_a_headline_with_counts() -> None:
    lines = render_markdown(sample_report()).splitlines()

    assert lines[0] == MARKER
    assert lines[1] == "### impactbot: 5 changed, 6 impacted, 3 tests, 1 hub, 2 breaking call sites"


def test_no_impact_is_one_short_line() -> None:
    text = render_markdown(no_impact_report())

    assert text.splitlines()[:2] == [
        MARKER,
        "**impactbot** · No impact: 2 changed symbols, no callers or tests reach them.",
    ]
    assert "###" not in text and "results are incomplete" not in text


def test_no_impact_still_says_how_many_calls_were_not_resolved() -> None:
    text = render_markdown(replace(no_impact_report(), unresolved_calls=4))

    assert "No impact: 2 changed symbols" in text
    assert "- 4 calls could not be resolved, so the list is a lower bound." in text


def test_partial_warns_first_even_without_impact() -> None:
    report = replace(partial_report(), impacted=(), tests=(), hubs=())
    lines = render_markdown(report).splitlines()

    assert lines[:3] == [
        MARKER,
        "> [!WARNING]",
        "> **Partial analysis, results are incomplete:** the time budget of 60 s ran out while linking 4,210 files",
    ]


def test_failure_names_the_escaped_message() -> None:
    text = render_failure_markdown("bad ref `x` <img src=y>\nsecond line")

    assert text.splitlines() == [
        MARKER,
        "> [!CAUTION]",
        r"> impactbot could not analyse this pull request: bad ref \`x\` &lt;img src=y&gt; second line",
    ]


def test_no_impact_comment_off_renders_nothing_for_a_complete_report_without_impact() -> None:
    quiet = RenderOptions(no_impact_comment=False)

    assert render_markdown(no_impact_report(), quiet) == ""
    assert render_markdown(sample_report(), quiet).startswith(MARKER)


# ---------------------------------------------------------------------- sections


def test_changed_symbols_list_removals_and_signature_changes_first() -> None:
    rows = table(render_markdown(sample_report()), "Symbol", "Kind", "Change")

    assert [cells[0][0].content for cells in rows] == [
        "pkg/legacy.py::old_discount",
        "pkg/orders.py::calculate_order_total",
        "pkg/orders.py::Cart::total",
        "pkg/pricing.py::apply_tax",
        "pkg/promo.py::Promo",
    ]
    text = render_markdown(sample_report())
    assert (
        "| signature changed: `(items: list[Item]) -> Decimal` → `(items: list[Item], currency: str) -> Decimal` |"
        in text
    )
    assert "| renamed from `pkg/pricing.py::add_tax` |" in text


def test_a_long_signature_shows_only_the_parameters_that_changed() -> None:
    options = [Param(f"option_{i}", "keyword_only", True, "str | None", "None") for i in range(8)]
    old = Signature((Param("self", "positional", False), *options))
    options[3] = Param("option_3", "keyword_only", True, "str | None", '"a default longer than shown"')
    new = Signature((Param("self", "positional", False), *options), returns="int")
    changed = (ChangedSymbol(symbol("pkg/app.py", "App::run", "method", signature=new), "modified",
                             signature_changed=True, old_signature=old),)
    report = sample_report(changed=changed)
    assert ('| signature changed: `(…, option_3: str \\| None = None, …)` → '
            '`(…, option_3: str \\| None = "a default longer than shown", …) -> int` |') in render_markdown(report)
    # the JSON report keeps the signature whole
    entry = next(c for c in report_to_json(report)["changed"] if c["id"] == "pkg/app.py::App::run")
    assert entry["signature"] == new.text() and "option_7: str | None = None" in entry["signature"]


def test_a_def_turned_async_or_back_says_so_and_comes_first_with_signature_changes() -> None:
    changed = (ChangedSymbol(symbol("pkg/new.py", "fresh"), "added"),
               ChangedSymbol(symbol("pkg/core.py", "compute"), "modified"),
               ChangedSymbol(symbol("pkg/io.py", "fetch"), "modified", async_turn="now_async"),
               ChangedSymbol(symbol("pkg/io.py", "load"), "renamed", old_id="pkg/old.py::load",
                             async_turn="no_longer_async"))
    report = sample_report(changed=changed)
    rows = table(render_markdown(report), "Symbol", "Kind", "Change")
    assert [(cells[0][0].content, "".join(t.content for t in cells[2])) for cells in rows] == [
        ("pkg/io.py::fetch", "modified, now async"),
        ("pkg/io.py::load", "renamed from pkg/old.py::load, no longer async"),
        ("pkg/core.py::compute", "modified"),
        ("pkg/new.py::fresh", "added"),
    ]
    text = render_text(report, color=False, width=200)
    assert "modified, now async" in text and "renamed from pkg/old.py::load, no longer async" in text
    turns = {c["id"]: c["async_turn"] for c in report_to_json(report)["changed"]}
    assert turns == {"pkg/new.py::fresh": None, "pkg/core.py::compute": None,
                     "pkg/io.py::fetch": "now_async", "pkg/io.py::load": "no_longer_async"}


def test_a_long_list_of_changed_symbols_folds_past_the_first_twenty() -> None:
    many = tuple(ChangedSymbol(symbol("pkg/moved.py", f"helper_{i:02}", line=i + 1), "renamed",
                               old_id=f"pkg/old.py::helper_{i:02}") for i in range(25))
    text = render_markdown(sample_report(changed=many))
    shown, folded = (rows for rows in tables(text) if rows[0][0][0].content == "Symbol" and len(rows[0]) == 3)
    assert [r[0][0].content for r in shown[1:]] == [f"pkg/moved.py::helper_{i:02}" for i in range(20)]
    assert [r[0][0].content for r in folded[1:]] == [f"pkg/moved.py::helper_{i:02}" for i in range(20, 25)]
    assert "<summary>5 more changed symbols</summary>" in text
    # the section after the fold is still a heading, not text inside the HTML block
    headings = [t.content for t in gfm.parse(text) if t.type == "inline" and t.content.startswith("Impacted")]
    assert len(headings) == 1 and headings[0].startswith("Impacted (")


def test_changed_symbols_that_behave_differently_come_before_moves_and_additions() -> None:
    moved = tuple(ChangedSymbol(symbol("tests/new/helpers.py", f"helper_{i:02}", line=i + 1), "renamed",
                                old_id=f"tests/old/helpers.py::helper_{i:02}") for i in range(25))
    changed = (ChangedSymbol(symbol("pkg/new.py", "fresh"), "added"), *moved,
               ChangedSymbol(symbol("pkg/core.py", "compute"), "modified"))
    text = render_markdown(sample_report(changed=changed))
    shown, _folded = (rows for rows in tables(text) if rows[0][0][0].content == "Symbol" and len(rows[0]) == 3)
    ids = [r[0][0].content for r in shown[1:]]
    # a renamed directory's twenty-five unchanged helpers do not push the modified one out of sight
    assert ids[0] == "pkg/core.py::compute"
    assert "pkg/new.py::fresh" not in ids


def test_paths_read_from_the_change_outwards() -> None:
    text = render_markdown(sample_report())

    assert "| `calculate_order_total` ← `process_checkout` ← `CheckoutView::post` |" in text


def test_symbols_link_to_their_line_at_the_head_commit_and_removed_ones_at_base() -> None:
    links = [t.attrs["href"] for t in tokens(render_markdown(sample_report(), LINKED)) if t.type == "link_open"]

    assert f"{REPO_URL}/blob/{HEAD_COMMIT}/pkg/api.py#L25" in links
    assert f"{REPO_URL}/blob/{HEAD_COMMIT}/pkg/checkout.py#L44" in links  # a breaking call site
    assert f"{REPO_URL}/blob/{BASE_COMMIT}/pkg/legacy.py#L7" in links  # removed: only base has it
    assert not any(t.type == "link_open" for t in tokens(render_markdown(sample_report())))


def test_tests_command_is_exact_and_shell_quoted() -> None:
    tests = ("tests/test_a.py::test_x[1-2]", "tests/it's.py::test_q", "tests/test_b.py::test_y")
    text = render_markdown(sample_report(tests=tests))

    command = re.search(r"```sh\n(.*)\n```", text)
    assert command is not None
    assert shlex.split(command.group(1)) == ["pytest", *sorted(tests)]


def test_more_than_fifty_tests_put_the_first_fifty_in_details_and_say_so() -> None:
    tests = tuple(f"tests/test_{i:03d}.py::test_it" for i in range(120))
    text = render_markdown(sample_report(tests=tests))

    assert "The command below runs the first 50 of 120 tests; all of them are listed at the end." in text
    assert "<summary>pytest command for the first 50 tests</summary>" in text
    command = re.search(r"```sh\n(.*)\n```", text)
    assert command is not None
    assert shlex.split(command.group(1))[1:] == sorted(tests)[:50]
    all_tests = [t.content for t in tokens(text) if t.type == "code_inline" and t.content.endswith("::test_it")]
    assert all_tests == sorted(tests)


def test_run_all_tests_is_stated_prominently() -> None:
    lines = render_markdown(sample_report(run_all_tests="conftest.py changed")).splitlines()

    assert lines[3:5] == ["> [!IMPORTANT]", r"> **Run the whole test suite:** conftest\.py changed"]


def test_limits_name_hubs_unresolved_calls_depth_and_skipped_files() -> None:
    text = render_markdown(sample_report(depth_limit_hit=True, omitted=4))

    assert "- `pkg/db.py::execute_query` is a hub with 240 callers: its callers were not expanded." in text
    assert "- 3 calls could not be resolved, so the list is a lower bound." in text
    assert "- The depth limit was reached" in text
    assert "- 4 more impacted symbols left out by the size limit." in text
    assert "- 1 file skipped: too-large (1)." in text
    assert "| `pkg/vendored/big_table.py` | too-large | 2\\.1 MB &gt; 1 MB limit |" in text


def test_mermaid_numbers_nodes_and_marks_changed_ones() -> None:
    text = render_markdown(sample_report())
    block = re.search(r"```mermaid\n(.*?)\n```", text, re.S)

    assert block is not None
    lines = block.group(1).splitlines()
    assert lines[0] == "flowchart RL"
    assert '  n0["pkg/checkout.py::process_checkout"]' in lines
    assert '  n1["pkg/orders.py::calculate_order_total"]' in lines
    assert "  n0 --> n1" in lines
    assert lines[-1] == "  class n1,n5,n7 changed"


# ---------------------------------------------------------------------- escaping

ALLOWED_HTML = re.compile(r"^(<!-- impactbot:report -->|<details>|</details>|<summary>[^<>]*</summary>|<sub>|</sub>)$")


def test_hostile_names_cannot_inject_html_or_break_markdown() -> None:
    text = render_markdown(hostile_report(), LINKED)
    flat = tokens(text)

    for token in flat:
        if token.type in ("html_inline", "html_block"):
            for line in token.content.strip().splitlines():
                assert ALLOWED_HTML.match(line), line
    rendered = gfm.render(text)
    assert "<img" not in rendered and "<script" not in rendered and "<b>" not in rendered
    assert rendered.count("<details>") == rendered.count("</details>") == 1  # the skipped-files section
    assert all(t.attrs["href"].startswith(f"{REPO_URL}/blob/") for t in flat if t.type == "link_open")
    assert not any(t.type == "image" for t in flat)
    # Code spans survive whole: each hostile id is one code span, character for character.
    spans = {t.content for t in flat if t.type == "code_inline"}
    assert {f"{HOSTILE_PATH}::f", f'{HOSTILE_OTHER}::K"[x]<y>::m', "tests/test_`x`.py::test_<b>ok</b>|"} <= spans
    assert f"{HOSTILE_PATH}::hub" in spans


def test_hostile_names_keep_every_table_row_in_shape() -> None:
    text = render_markdown(hostile_report(), LINKED)
    raw_tables = re.findall(r"(?m)(?:^\|.*\n)+", text)

    assert len(raw_tables) == 4  # breaking, changed, impacted, skipped files
    for raw in raw_tables:
        # GFM splits a row at every pipe not escaped by a backslash, code spans included.
        widths = {len(re.findall(r"(?<!\\)\|", row)) for row in raw.splitlines()}
        assert len(widths) == 1, raw
    for row in (row for rows in tables(text) for row in rows):
        assert all(cell for cell in row), row


def test_hostile_text_in_prose_shows_literally() -> None:
    text = render_markdown(hostile_report(), LINKED)
    rendered_text = html.unescape(re.sub(r"<[^>]+>", "", gfm.render(text)))

    assert "missing <b>x</b> | `y` @\u200boctocat [z](http://e)" in rendered_text
    assert "see [docs](javascript:alert(1)) </details>" in rendered_text
    assert "budget <img src=x onerror=alert(1)> | ran out" in rendered_text


def test_mention_in_a_name_does_not_ping_anyone() -> None:
    assert md_text("@octocat") == "@\u200boctocat"


@pytest.mark.parametrize(
    "value",
    ["plain", "a`b", "``x``", "`lead", "trail`", " spaced ", "a|b", "<b>x</b>", "back\\slash", "[x](http://e)"],
)
def test_code_spans_show_their_content_exactly(value: str) -> None:
    inline = gfm.parse(f"x {md_code(value)} y")[1].children or []
    cell = tables(f"| h |\n| --- |\n| {md_code(value, in_table=True)} |")[0][1][0]

    assert [t.content for t in inline if t.type == "code_inline"] == [value]
    assert [t.content for t in cell if t.type == "code_inline"] == [value]


@pytest.mark.parametrize(
    "value",
    ["a*b*c", "_x_", "[l](http://e)", "<script>", "a | b", "#1 ~~s~~ $x$", "\\`", "line\nbreak", "&amp;"],
)
def test_inline_text_and_cells_show_their_content_literally(value: str) -> None:
    expected = " ".join(value.split())
    prose = gfm.render(f"x {md_text(value)} y").strip()
    cell = tables(f"| h |\n| --- |\n| {md_cell(value)} |")[0][1][0]

    assert html.unescape(prose) == f"<p>x {expected} y</p>"
    assert [t.type for t in cell] == ["text"] and cell[0].content == expected


def test_an_empty_cell_keeps_the_table_shape() -> None:
    assert md_cell("") == "–"


def test_mermaid_labels_escape_quotes_brackets_and_angles() -> None:
    assert mermaid_label('K"[x]<y>`|#;') == "K#34;#91;x#93;#60;y#62;#96;#124;#35;#59;"
    assert mermaid_label("pkg/a.py::Cart::total") == "pkg/a.py::Cart::total"
    block = re.search(r"```mermaid\n(.*?)\n```", render_markdown(hostile_report()), re.S)
    assert block is not None
    for line in block.group(1).splitlines()[1:]:
        assert re.fullmatch(r'  n\d+\["[A-Za-z0-9 _./:#;-]*"\]|  n\d+ --> n\d+|  class(Def)? .*', line), line


# -------------------------------------------------------------------- truncation


def test_large_report_truncates_under_the_limit_with_a_visible_note() -> None:
    text = render_markdown(large_report(), LINKED)

    assert len(text) <= 60_000
    assert "> … truncated: 485 more impacted symbols, 1,950 more tests not shown here;" in text
    assert "see the job summary or the JSON report." in text


@pytest.mark.parametrize("max_chars", [50_000, 20_000, 8_000, 3_000, 1_000, 500])
def test_any_budget_is_respected_and_the_marker_survives(max_chars: int) -> None:
    for report in (large_report(), hostile_report()):
        text = render_markdown(report, RenderOptions(max_chars=max_chars, repo_url=REPO_URL))

        assert len(text) <= max_chars
        assert text.startswith(MARKER + "\n")


def test_shortening_lists_comes_after_dropping_details() -> None:
    full = render_markdown(large_report())
    tight = render_markdown(large_report(), RenderOptions(max_chars=8_000))

    # 60,000 characters: the big detail sections go, the small one and the top 15 stay.
    assert "#### Impacted (15 of 500)" in full
    assert "<summary>Skipped files (1)</summary>" in full and "All impacted symbols" not in full
    # 8,000 characters: every list is shortened, and the note counts what was cut.
    shown = re.search(r"#### Impacted \((\d+) of 500\)", tight)
    assert shown is not None and int(shown.group(1)) < 15
    assert f"… truncated: {500 - int(shown.group(1))} more impacted symbols, " in tight
    assert "1 more skipped file not shown here" in tight and "<summary>Skipped files" not in tight


def test_summary_lists_everything_under_one_mebibyte() -> None:
    report = large_report()
    text = render_summary(report, LINKED)

    assert len(text.encode()) <= SUMMARY_MAX_BYTES
    assert "truncated" not in text
    spans = {t.content for t in tokens(text) if t.type == "code_inline"}
    assert {r.impacted.symbol.id for r in report.impacted} <= spans
    command = re.search(r"```sh\n(.*)\n```", text)
    assert command is not None and shlex.split(command.group(1))[1:] == sorted(report.tests)


def test_summary_truncates_in_bytes_when_it_would_exceed_one_mebibyte() -> None:
    text = render_summary(large_report(impacted=3_000, tests=12_000, path_length=3))

    assert len(text.encode()) <= SUMMARY_MAX_BYTES
    assert "… truncated:" in text


# -------------------------------------------------------------------- environment


def test_strict_undefined_fails_loudly() -> None:
    env = make_environment()

    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ missing }}").render()
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ v.nope }}").render(v={})


def test_environment_has_the_escaping_filters_and_does_not_autoescape() -> None:
    env = make_environment()

    assert env.from_string("{{ x | md }} {{ x | code }} {{ x }}").render(x="<a>") == "&lt;a&gt; `<a>` <a>"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"top": -1}, "top: must be 0 or more, got -1."),
        ({"max_chars": 10}, "max_chars: must be at least 500, got 10."),
        ({"repo_url": "github.com/o/r"}, "repo_url: expected an http(s) URL, got 'github.com/o/r'."),
    ],
)
def test_bad_options_are_a_one_line_config_error(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        RenderOptions(**options)


# --------------------------------------------------------------------------- text


def test_text_without_color_is_plain_and_lists_every_id_and_path() -> None:
    report = sample_report()
    text = render_text(report, color=False, width=200)

    assert "\x1b" not in text
    assert text.startswith("impactbot: 5 changed, 6 impacted, 3 tests, 1 hub, 2 breaking call sites\n")
    for item in report.impacted:
        assert item.impacted.symbol.id in text
    for changed in report.changed:
        assert changed.symbol.id in text
    assert "calculate_order_total ← process_checkout ← CheckoutView::post" in text
    assert "3 calls could not be resolved, so the list is a lower bound." in text
    assert "Hub not expanded: pkg/db.py::execute_query (240 callers)" in text
    assert "pkg/checkout.py:44" in text and "missing required argument 'currency'" in text
    assert "Skipped pkg/vendored/big_table.py (too-large: 2.1 MB > 1 MB limit)" in text


def test_text_with_color_uses_ansi_styles() -> None:
    assert "\x1b[1m" in render_text(sample_report(), color=True, width=120)


def test_text_states_partial_and_no_impact() -> None:
    partial = render_text(partial_report(), color=False, width=200)
    quiet = render_text(no_impact_report(), color=False, width=200)

    assert partial.splitlines()[0] == (
        "⚠ Partial analysis, results are incomplete: the time budget of 60 s ran out while linking 4,210 files"
    )
    assert quiet.splitlines()[0] == "No impact: 2 changed symbols, no callers or tests reach them."


def test_text_shows_hostile_names_as_data_not_markup() -> None:
    text = render_text(hostile_report(), color=False, width=300)

    assert f"{HOSTILE_PATH}::f" in text
    assert "[z](http://e)" in text


def test_text_width_follows_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "72")
    text = render_text(large_report(impacted=5, tests=3), color=False)

    assert max(len(line) for line in text.splitlines()) == 72


# ------------------------------------------------------------------ installed wheel

_RENDER_FROM_INSTALL = """
import importlib.util, json, sys
import impactbot, impactbot.render as render, impactbot.report as report
spec = importlib.util.spec_from_file_location("reports", sys.argv[1])
reports = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reports)
options = render.RenderOptions(repo_url=reports.REPO_URL)
print(json.dumps({
    "package": impactbot.__file__,
    "templates": [str(d) for d in render.template_dirs()],
    "markdown": render.render_markdown(reports.sample_report(), options),
    "schema": report.schema("graph")["$id"],
}))
"""


def _copy_project(destination: Path) -> Path:
    project = Path(__file__).resolve().parents[2]
    shutil.copytree(project / "impactbot", destination / "impactbot", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(project / "templates", destination / "templates")
    shutil.copy(project / "pyproject.toml", destination)
    readme = project / "README.md"
    (destination / "README.md").write_text(readme.read_text() if readme.exists() else "impactbot\n")
    return destination


def _venv_with_our_dependencies(root: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(root)], check=True)
    python = root / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # The dependencies come from this interpreter rather than the network; appended
    # after the venv's own site-packages, so the installed impactbot comes first.
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (Path(site) / "impactbot_test_deps.pth").write_text("\n".join(sorted(ours)) + "\n")
    return python


@pytest.mark.slow
def test_templates_render_from_an_installed_wheel(tmp_path: Path) -> None:
    source = _copy_project(tmp_path / "src")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(source), "-w", str(tmp_path / "dist")],
        check=True,
        capture_output=True,
    )
    wheel = next((tmp_path / "dist").glob("impactbot-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert {"impactbot/templates/comment.md.j2", "impactbot/templates/_macros.md.j2"} <= set(names)
    assert {"impactbot/schema/impact-report.schema.json", "impactbot/schema/graph.schema.json"} <= set(names)

    python = _venv_with_our_dependencies(tmp_path / "venv")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)],
        check=True,
        capture_output=True,
    )
    helper = Path(__file__).resolve().parents[1] / "helpers" / "reports.py"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run(
        [str(python), "-c", _RENDER_FROM_INSTALL, str(helper)],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    installed = json.loads(result.stdout)

    package_dir = Path(installed["package"]).parent
    assert package_dir.is_relative_to(tmp_path / "venv")
    assert installed["templates"] == [str(package_dir / "templates")]
    assert installed["markdown"] == render_markdown(sample_report(), LINKED)
    assert installed["schema"] == "urn:impactbot:schema:graph@1"


def test_text_escapes_control_characters_in_names() -> None:
    sneaky = "pkg/\x1b[2Jclear.py::f"
    report = sample_report(tests=(sneaky,), notes=("bell\x07",))

    for color in (False, True):
        text = render_text(report, color=color, width=200)
        assert "\x1b[2J" not in text and "\x07" not in text
        assert "pkg/\\x1b[2Jclear.py::f" in text
