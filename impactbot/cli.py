"""The command line: arguments -> settings -> pipeline -> render -> publish.

This module and ``action`` are the only places that build the adapters
(repository, cache, embedder, GitHub client) and the only places that print.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from impactbot import __version__
from impactbot.boundary import EXIT_GATE, EXIT_OK, error_handler
from impactbot.cache import Cache
from impactbot.config import (
    Settings,
    pytest_plugin_modules,
    pytest_test_files,
    settings_from_environ,
    settings_from_table,
    table_from_toml,
)
from impactbot.errors import CannotPostComment, ConfigError, UsageError
from impactbot.git import GitRepository
from impactbot.model import Report, Revision

FORMATS = ("text", "markdown", "json")


# ------------------------------------------------------------------ settings


def _config_table(repo: GitRepository, config: Path | None, at: Revision | None) -> dict[str, object]:
    """[tool.impactbot] from an explicit file, or discovered at the repository root."""
    if config is not None:
        if not config.is_file():
            raise ConfigError(f"--config: {config} does not exist")
        text = config.read_text(encoding="utf-8")
        return table_from_toml(text, str(config), pyproject=config.name == "pyproject.toml")
    for name, is_pyproject in ((".impactbot.toml", False), ("pyproject.toml", True)):
        found = _root_file(repo, at, name)
        if found is None:
            continue
        text = found
        table = table_from_toml(text, name, pyproject=is_pyproject)
        if table or not is_pyproject:
            return table
    return {}


def _root_file(repo: GitRepository, at: Revision | None, name: str) -> str | None:
    """A file at the repository root: in the working tree, or in commit ``at``."""
    if at is not None:  # read from a commit, e.g. the base of a pull request
        data = repo.read_path(at, name)
        return data.decode("utf-8", "replace") if data is not None else None
    path = repo.root / name
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None


def _settings(repo: GitRepository, opts: dict[str, Any], at: Revision | None) -> Settings:
    table = _config_table(repo, opts.get("config"), at)
    settings = settings_from_table(table, "[tool.impactbot]")
    settings = settings_from_environ(os.environ, settings)
    if settings.test_files is None:  # which files hold tests: pytest's own configuration says
        found = pytest_test_files(lambda name: _root_file(repo, at, name))
        settings = settings.with_overrides(test_files=found)
    # plugins pytest loads by configuration: their fixtures are visible to every test
    found_plugins = pytest_plugin_modules(lambda name: _root_file(repo, at, name))
    settings = settings.with_overrides(test_plugins=tuple(dict.fromkeys((*settings.test_plugins, *found_plugins))))
    return settings.with_overrides(
        depth=opts.get("depth"),
        hub_cap=opts.get("hub_cap"),
        include=tuple(opts.get("include") or ()),
        exclude=tuple(opts.get("exclude") or ()),
        semantic=opts.get("semantic"),
        model=opts.get("model"),
        top=opts.get("top"),
        time_budget=opts.get("time_budget"),
    )


def _open_cache(repo: GitRepository | None, cache_dir: Path | None, no_cache: bool, create: bool = True) -> Cache:
    if no_cache:
        return Cache.open(None)
    if cache_dir is None:
        env = os.environ.get("IMPACTBOT_CACHE_DIR")
        if env:
            cache_dir = Path(env)
        elif repo is not None:
            cache_dir = repo.git_dir / "impactbot"
    return Cache.open(cache_dir, create=create)


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """An analysis builds millions of long-lived objects without reference cycles;
    the cyclic collector's repeated full scans of them cost about 40% of a cold run."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            # Everything allocated meanwhile sits in the youngest generation: the
            # first collection would walk all of it (0.1-0.2 s on Django). Frozen
            # objects are skipped by the collector and still freed by refcount.
            gc.freeze()
            gc.enable()


def _repo(path: Path | None) -> GitRepository:
    return GitRepository.discover(path or Path.cwd())


# ------------------------------------------------------------------ options


def _common(func: Any) -> Any:
    for option in reversed(
        [
            click.option("-C", "--repo", "repo_path", type=click.Path(path_type=Path),
                         help="Repository to analyse (default: the one containing the current directory)."),
            click.option("--cache-dir", type=click.Path(path_type=Path),
                         help="Cache directory (default: .git/impactbot/, or $IMPACTBOT_CACHE_DIR)."),
            click.option("--no-cache", is_flag=True, help="Neither read nor write the cache."),
            click.option("--config", type=click.Path(path_type=Path),
                         help="Configuration file (pyproject.toml or .impactbot.toml); by default the "
                              "one at the repository root."),
            click.option("--include", multiple=True, metavar="GLOB",
                         help="Analyse only files matching GLOB (repeatable)."),
            click.option("--exclude", multiple=True, metavar="GLOB",
                         help="Leave out files matching GLOB (repeatable)."),
            click.option("-o", "--output", type=click.Path(path_type=Path),
                         help="Write the result to FILE instead of standard output."),
            click.option("--debug", is_flag=True, help="Show a traceback on unexpected errors."),
            click.option("-q", "--quiet", is_flag=True, help="No progress output on stderr."),
        ]
    ):
        func = option(func)
    return func


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="impactbot")
def cli() -> None:
    """impactbot: what a change touches, and what depends on it through the call graph.

    \b
    Examples:
      impactbot diff main..HEAD          what this branch changed and impacted
      impactbot diff                     uncommitted work against HEAD
      impactbot diff main --tests | xargs pytest
      impactbot graph --format dot -o graph.dot
    """


@cli.command()
@click.argument("range_", metavar="[RANGE]", required=False)
@_common
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Output format (default: text on a terminal, json otherwise).")
@click.option("--depth", type=click.IntRange(min=1),
              help="List impacted symbols up to N call hops from a change (default 3).")
@click.option("--hub-cap", type=click.IntRange(min=1),
              help="Symbols with more callers than N are hubs: counted, not expanded (default 25).")
@click.option("--semantic/--no-semantic", default=None,
              help="Also order impacted symbols by code similarity (default off: structure only).")
@click.option("--model", help="Sentence-transformers model for --semantic.")
@click.option("--top", type=click.IntRange(min=1), help="Impacted symbols shown in the comment (default 15).")
@click.option("--tests", "tests_only", is_flag=True,
              help="Print only the ids of the tests to run, one per line (pytest node ids); "
                   "none when the change asks for the whole suite (the reason goes to stderr).")
@click.option("--time-budget", type=click.FloatRange(min=0.1), metavar="SECONDS",
              help="Stop reading files after SECONDS and report what was analysed (status: partial).")
@click.option("--config-from-base", is_flag=True,
              help="Read [tool.impactbot] from the base commit, so a change cannot reconfigure its own report.")
@click.option("--github-comment", is_flag=True,
              help="Post (or update) the sticky pull-request comment. Needs GITHUB_TOKEN and GITHUB_REPOSITORY.")
@click.option("--pr", type=click.IntRange(min=1), help="Pull request number (default: from GITHUB_EVENT_PATH).")
@click.option("--no-impact", type=click.Choice(["update", "delete", "skip"]), default="update",
              show_default=True, help="With --github-comment, what to do when nothing is impacted.")
@click.option("--github-summary", is_flag=True, help="Append the full report to $GITHUB_STEP_SUMMARY.")
@click.option("--fail-on", type=click.Choice(["breaking", "impacted"]),
              help="Exit 1 when there are breaking call sites / impacted symbols.")
def diff(range_: str | None, **opts: Any) -> None:
    """Analyse RANGE: what changed, and what reaches it through the call graph.

    \b
    RANGE forms (base is always the merge base, as a pull request shows it):
      A..B, A...B   changes on B since it diverged from A
      A             same as A...HEAD
      (none)        the working tree (staged, unstaged and untracked files) against HEAD

    Exit codes: 0 analysed, 1 --fail-on tripped, 2 usage or input error,
    3 could not analyse, 130 interrupted.
    """
    code = run_diff(range_, opts)
    if code:
        sys.exit(code)


@cli.command()
@click.argument("rev", default="HEAD", metavar="[REV]")
@_common
@click.option("--format", "fmt", type=click.Choice(["json", "dot"]), default="json", show_default=True,
              help="json (impactbot/graph@1) or Graphviz dot.")
def graph(rev: str, **opts: Any) -> None:
    """Export the linked call graph of REV (default HEAD)."""
    import json

    from impactbot.pipeline import build_graph
    from impactbot.publish import write_output
    from impactbot.report import graph_to_dot, graph_to_json

    repo = _repo(opts["repo_path"])
    revision = repo.revision(rev)
    settings = _settings(repo, opts, None)
    with _open_cache(repo, opts["cache_dir"], opts["no_cache"]) as cache, _no_cyclic_gc():
        linked = build_graph(revision, settings, repo=repo, cache=cache)
    if opts["fmt"] == "dot":
        text = graph_to_dot(linked)
    else:
        text = json.dumps(graph_to_json(linked, revision.commit), indent=2) + "\n"
    write_output(text, opts["output"])


@cli.command()
@click.argument("range_", metavar="[RANGE]", required=False)
@_common
def tests(range_: str | None, **opts: Any) -> None:
    """Print the tests that reach the changes in RANGE, one pytest node id per line.

    Same as `impactbot diff RANGE --tests --no-semantic`.
    """
    opts.update(tests_only=True, semantic=False, fmt=None)
    code = run_diff(range_, opts)
    if code:
        sys.exit(code)


@cli.group()
def cache() -> None:
    """Inspect or clear the analysis cache."""


@cache.command("info")
@click.option("-C", "--repo", "repo_path", type=click.Path(path_type=Path))
@click.option("--cache-dir", type=click.Path(path_type=Path))
def cache_info(repo_path: Path | None, cache_dir: Path | None) -> None:
    """Where the cache is and what it holds."""
    repo = _repo(repo_path) if cache_dir is None else None
    with _open_cache(repo, cache_dir, False, create=False) as c:
        info = c.info()
    click.echo(f"path:       {info.path}")
    click.echo(f"size:       {info.size_bytes / 1024:.1f} KiB")
    click.echo(f"facts:      {info.facts}")
    click.echo(f"graphs:     {info.graphs}")
    click.echo(f"embeddings: {info.embeddings}")
    click.echo(f"schema:     {info.schema}")


@cache.command("clear")
@click.option("-C", "--repo", "repo_path", type=click.Path(path_type=Path))
@click.option("--cache-dir", type=click.Path(path_type=Path))
def cache_clear(repo_path: Path | None, cache_dir: Path | None) -> None:
    """Remove every cached entry (facts, graphs, embeddings)."""
    repo = _repo(repo_path) if cache_dir is None else None
    with _open_cache(repo, cache_dir, False, create=False) as c:
        c.clear()
        click.echo(f"cleared {c.info().path}")


# ------------------------------------------------------------------ diff


def run_diff(range_: str | None, opts: dict[str, Any]) -> int:
    """Analyse, render, publish; returns the exit code."""
    from impactbot.pipeline import analyse

    repo = _repo(opts.get("repo_path"))
    changes = repo.changeset(range_)
    settings = _settings(repo, opts, changes.base if opts.get("config_from_base") else None)
    progress = None if opts.get("quiet") else _progress()
    with _open_cache(repo, opts.get("cache_dir"), bool(opts.get("no_cache"))) as cache:
        embedder = _embedder(settings, cache) if settings.semantic else None
        with _no_cyclic_gc():
            report = analyse(changes, settings, repo=repo, cache=cache, embedder=embedder, progress=progress)
    _finish_progress(progress)
    if not opts.get("quiet") and not sys.stderr.isatty():
        s = report.stats
        click.echo(f"impactbot: {s.files_parsed} files parsed, {s.files_cached} from cache, "
                   f"{len(report.changed)} changed, {len(report.impacted)} impacted, {s.seconds:.2f}s", err=True)
    _publish(report, settings, opts)
    return _gate(report, opts.get("fail_on"))


def _embedder(settings: Settings, cache: Cache) -> Any:
    from impactbot.embed import SentenceEmbedder

    return SentenceEmbedder(settings.model, cache, warn=lambda m: click.echo(f"impactbot: {m}", err=True))


def _publish(report: Report, settings: Settings, opts: dict[str, Any]) -> None:
    from impactbot.publish import write_output

    fmt = opts.get("fmt")
    if opts.get("tests_only"):
        if report.run_all_tests:
            # no ids: `impactbot tests | xargs pytest` then runs the whole suite, as the
            # change asks; the selected ones alone could miss what the graph cannot see
            click.echo(f"impactbot: run the whole test suite: {report.run_all_tests}", err=True)
            text = ""
        else:
            text = "".join(t + "\n" for t in report.tests)
    else:
        fmt = fmt or ("text" if opts.get("output") is None and sys.stdout.isatty() else "json")
        text = _render(report, fmt, settings, color=opts.get("output") is None and sys.stdout.isatty())
    write_output(text, opts.get("output"))
    if opts.get("github_summary"):
        _github_summary(report, settings)
    if opts.get("github_comment"):
        _github_comment(report, settings, opts)


def _render(report: Report, fmt: str, settings: Settings, *, color: bool) -> str:
    if fmt == "json":
        import json

        from impactbot.report import report_to_json

        return json.dumps(report_to_json(report), indent=2) + "\n"
    from impactbot.render import RenderOptions, render_markdown, render_text

    if fmt == "markdown":
        return render_markdown(report, RenderOptions(top=settings.top, repo_url=_repo_url()))
    return render_text(report, color=color)


def _repo_url() -> str | None:
    server = os.environ.get("GITHUB_SERVER_URL", "https://github.com")
    repository = os.environ.get("GITHUB_REPOSITORY")
    return f"{server.rstrip('/')}/{repository}" if repository else None


def _github_summary(report: Report, settings: Settings) -> None:
    from impactbot.publish import write_step_summary
    from impactbot.render import RenderOptions, render_summary

    body = render_summary(report, RenderOptions(top=settings.top, repo_url=_repo_url()))
    if not write_step_summary(body, os.environ):
        click.echo("impactbot: GITHUB_STEP_SUMMARY is not set; no job summary written", err=True)


def _github_comment(report: Report, settings: Settings, opts: dict[str, Any]) -> None:
    from impactbot.github import GitHubContext, post_sticky_comment
    from impactbot.render import RenderOptions, render_markdown

    ctx = GitHubContext.from_environ(os.environ, pr=opts.get("pr"))
    body = render_markdown(report, RenderOptions(top=settings.top, repo_url=_repo_url()))
    has_impact = bool(report.impacted or report.breaking or report.tests or report.status != "complete")
    try:
        outcome = post_sticky_comment(ctx, body, has_impact=has_impact, no_impact=opts.get("no_impact") or "update")
    except CannotPostComment as exc:
        # the analysis itself succeeded: say why the comment is missing, keep the exit code
        click.echo(f"impactbot: warning: {exc}", err=True)
        return
    click.echo(f"impactbot: pull-request comment {outcome}", err=True)


def _gate(report: Report, fail_on: str | None) -> int:
    if fail_on == "breaking" and report.breaking:
        click.echo(f"impactbot: {len(report.breaking)} breaking call site(s) (--fail-on breaking)", err=True)
        return EXIT_GATE
    if fail_on == "impacted" and (report.impacted or report.breaking):
        click.echo(f"impactbot: {len(report.impacted)} impacted symbol(s) (--fail-on impacted)", err=True)
        return EXIT_GATE
    return EXIT_OK


def _progress() -> Any:
    """A rich progress bar on a terminal; nothing otherwise (a summary line is printed at the end)."""
    if not sys.stderr.isatty():
        return None
    from impactbot.progress import ExtractionProgress

    return ExtractionProgress()


def _finish_progress(progress: Any) -> None:
    if progress is not None:
        progress.close()


def run() -> NoReturn:
    """The console entry point: :func:`main`, then exit without tearing down.

    The interpreter's teardown frees every object of the analysis one by one
    (about 0.1 s after a cold run on Django); the process is ending, so its
    output is flushed and the operating system takes the memory back at once.
    """
    code = main()
    if "logging" in sys.modules:  # flush what handlers hold, if anything logged
        sys.modules["logging"].shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a reader that went away (`| head`)
            stream.flush()
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run the CLI and map every outcome to an exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    with error_handler(debug=debug) as outcome:
        try:
            cli.main(args=args, prog_name="impactbot", standalone_mode=False)
        except click.exceptions.Exit as exc:
            outcome.code = exc.exit_code
        except click.ClickException as exc:
            raise UsageError(exc.format_message()) from exc
        except SystemExit as exc:
            outcome.code = int(exc.code or 0)
    return outcome.code


