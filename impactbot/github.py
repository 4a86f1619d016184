"""Publish on a pull request: one sticky comment, found by its marker and updated in place.

The only module that imports PyGithub. A new comment on every push gets a bot
uninstalled, so a run edits the comment an earlier run left, and it never touches
a comment written by anyone else, even one that quotes the marker. Every failure
becomes a one-line ``CannotPostComment``; the token never appears in a message.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import github
from github import Auth, Github, GithubException, GithubRetry
from github.Issue import Issue
from github.IssueComment import IssueComment

from impactbot.errors import CannotPostComment, ConfigError
from impactbot.render import MARKER

logger = logging.getLogger(__name__)

DEFAULT_API_URL = "https://api.github.com"
# GitHub App installation tokens (the Actions GITHUB_TOKEN is one) get 403 from
# GET /user; their comments are authored by this login.
ACTIONS_BOT_LOGIN = "github-actions[bot]"
TIMEOUT_SECONDS = 15
# GitHub rejects a comment body over 65,536 characters with 422.
COMMENT_LIMIT = 65_536
_TRUNCATION_NOTE = "\n\n… truncated to fit GitHub's comment size limit; see the job summary.\n"
_REPOSITORY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9._-]+")
_FORK_HINT = (
    "the token lacks `pull-requests: write`; on pull requests from forks GitHub grants "
    "a read-only token - see the fork-safe workflow in the README"
)

PostOutcome = Literal["created", "updated", "deleted", "skipped"]
NoImpactPolicy = Literal["delete", "update", "skip"]
NO_IMPACT_POLICIES: tuple[NoImpactPolicy, ...] = ("delete", "update", "skip")


# ------------------------------------------------------------------------ context


@dataclass(frozen=True)
class GitHubContext:
    """Where to post: the API, the repository, the pull request, and the token.

    ``pace_requests`` spaces requests the way GitHub asks automated clients to
    (PyGithub's 0.25 s between requests, 1 s between writes); turn it off only for
    a server you run yourself, such as a local test double.
    """

    token: str = field(repr=False)
    repository: str
    api_url: str
    pr: int | None
    pace_requests: bool = True

    @classmethod
    def from_environ(cls, environ: Mapping[str, str], pr: int | None = None) -> GitHubContext:
        """Read ``GITHUB_TOKEN``, ``GITHUB_REPOSITORY``, ``GITHUB_API_URL`` and the PR number.

        The PR number is ``pr`` when given, else the event at ``GITHUB_EVENT_PATH``
        (``pull_request.number``, or ``issue.number`` of an ``issue_comment`` on a
        pull request). All problems are reported together in one ``ConfigError``.
        """
        problems: list[str] = []
        token = environ.get("GITHUB_TOKEN", "").strip()
        if not token:
            problems.append(
                "GITHUB_TOKEN is not set: posting on a pull request needs a token "
                "(in a workflow: `env: GITHUB_TOKEN: ${{ github.token }}`)"
            )
        repository = _clean_repository(environ.get("GITHUB_REPOSITORY", ""), problems)
        api_url = _clean_api_url(environ.get("GITHUB_API_URL") or DEFAULT_API_URL, problems)
        number = _clean_pr(pr, environ.get("GITHUB_EVENT_PATH", ""), problems)
        if problems:
            raise ConfigError("; ".join(problems) + ".")
        return cls(token=token, repository=repository, api_url=api_url, pr=number)


def _clean_repository(value: str, problems: list[str]) -> str:
    value = value.strip()
    if not _REPOSITORY.fullmatch(value):
        shown = f"'{value}'" if value else "empty"
        problems.append(f"GITHUB_REPOSITORY must be OWNER/NAME, got {shown}")
    return value


def _clean_api_url(value: str, problems: list[str]) -> str:
    value = value.strip().rstrip("/")
    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        problems.append(f"GITHUB_API_URL must be an http(s) URL, got '{value}'")
    return value


def _clean_pr(pr: int | None, event_path: str, problems: list[str]) -> int | None:
    if pr is not None:
        if isinstance(pr, bool) or not isinstance(pr, int) or pr < 1:
            problems.append(f"--pr must be a positive pull request number, got {pr!r}")
        return pr
    try:
        number = _pr_from_event(event_path)
    except ConfigError as exc:
        problems.append(str(exc))
        return None
    if number is None:
        problems.append(
            "no pull request number: the GitHub event (GITHUB_EVENT_PATH) is not about a pull request; pass --pr NUMBER"
        )
    return number


def _pr_from_event(event_path: str) -> int | None:
    """The PR number in a GitHub event payload, or None when it names no pull request."""
    if not event_path:
        return None
    try:
        payload = json.loads(Path(event_path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(
            f"cannot read the GitHub event file {event_path} (GITHUB_EVENT_PATH): "
            f"{exc.strerror or exc}; pass --pr NUMBER"
        ) from exc
    except ValueError as exc:
        raise ConfigError(
            f"the GitHub event file {event_path} (GITHUB_EVENT_PATH) is not valid JSON; pass --pr NUMBER"
        ) from exc
    if not isinstance(payload, dict):
        return None
    return _number(payload.get("pull_request")) or _issue_pr_number(payload.get("issue"))


def _issue_pr_number(issue: Any) -> int | None:
    # issue_comment events fire for plain issues too; only a PR can carry the report
    if isinstance(issue, dict) and issue.get("pull_request"):
        return _number(issue)
    if isinstance(issue, dict) and _number(issue):
        raise ConfigError(
            f"the issue_comment event is on issue #{issue['number']}, which is not a pull request; pass --pr NUMBER"
        )
    return None


def _number(obj: Any) -> int | None:
    value = obj.get("number") if isinstance(obj, dict) else None
    return value if type(value) is int and value > 0 else None


# ------------------------------------------------------------------------ posting


def post_sticky_comment(
    ctx: GitHubContext,
    body: str,
    *,
    has_impact: bool,
    no_impact: NoImpactPolicy = "update",
) -> PostOutcome:
    """Create, update or delete impactbot's one comment on ``ctx.pr``.

    ``body`` is prefixed with ``MARKER`` when it lacks it, and cut to GitHub's
    size limit. Ours is a comment whose first line starts with ``MARKER`` and
    whose author is the token's identity. With ``has_impact`` (or
    ``no_impact="update"``) the newest of ours is edited, or one is created.
    When there is no impact:

    - ``delete`` removes ours ("deleted"), or does nothing ("skipped");
    - ``skip`` posts nothing new, but an existing comment of ours would now be
      stale, so it is updated to ``body`` ("updated"); with none: "skipped";
    - ``update`` behaves as with impact.

    Older duplicates of ours (left by earlier versions) are deleted.
    Raises ``CannotPostComment`` on any refusal or network failure.
    """
    if no_impact not in NO_IMPACT_POLICIES:
        raise ConfigError(f"--no-impact must be one of delete, update, skip; got '{no_impact}'.")
    number = _require_pr(ctx)
    text = _fit(_with_marker(body))
    with _client(ctx) as client:
        issue = client.get_repo(ctx.repository).get_issue(number)
        with _translated_errors(ctx, writing=False):
            # GitHub comment ids grow with time: the highest is the newest
            ours = sorted(_our_comments(issue, _identity(client)), key=_comment_id, reverse=True)
        newest, stale = (ours[0], ours[1:]) if ours else (None, [])
        with _translated_errors(ctx, writing=True):
            outcome = _reconcile(issue, newest, text, has_impact=has_impact, no_impact=no_impact)
            for comment in stale:
                comment.delete()
    logger.info("impactbot comment on %s#%d: %s", ctx.repository, number, outcome)
    return outcome


def _reconcile(
    issue: Issue,
    newest: IssueComment | None,
    text: str,
    *,
    has_impact: bool,
    no_impact: NoImpactPolicy,
) -> PostOutcome:
    if not has_impact and no_impact == "delete":
        return _delete(newest)
    if not has_impact and no_impact == "skip" and newest is None:
        return "skipped"
    if newest is None:
        issue.create_comment(text)
        return "created"
    if newest.body != text:
        newest.edit(text)
    return "updated"


def _delete(newest: IssueComment | None) -> PostOutcome:
    if newest is None:
        return "skipped"
    newest.delete()
    return "deleted"


def _our_comments(issue: Issue, login: str) -> list[IssueComment]:
    return [c for c in issue.get_comments() if _is_ours(c, login)]


def _is_ours(comment: IssueComment, login: str) -> bool:
    author = comment.user.login if comment.user is not None else None
    return author == login and _first_line(comment.body or "").startswith(MARKER)


def _first_line(text: str) -> str:
    return text.lstrip("\ufeff").split("\n", 1)[0].strip()


def _comment_id(comment: IssueComment) -> int:
    return comment.id


def _identity(client: Github) -> str:
    """The login the token posts as; App tokens cannot read /user, see ACTIONS_BOT_LOGIN."""
    try:
        return client.get_user().login
    except GithubException as exc:
        if exc.status not in (403, 404):
            raise
        logger.debug("GET /user answered %s; assuming %s", exc.status, ACTIONS_BOT_LOGIN)
        return ACTIONS_BOT_LOGIN


def _with_marker(body: str) -> str:
    # without the marker the next run could not find this comment and would post another
    return body if _first_line(body).startswith(MARKER) else f"{MARKER}\n{body}"


def _fit(body: str) -> str:
    if len(body) <= COMMENT_LIMIT:
        return body
    return body[: COMMENT_LIMIT - len(_TRUNCATION_NOTE)] + _TRUNCATION_NOTE


def _require_pr(ctx: GitHubContext) -> int:
    if ctx.pr is None:
        raise ConfigError("No pull request to post on: pass --pr NUMBER.")
    return ctx.pr


# ------------------------------------------------------------------ pull requests


@dataclass(frozen=True)
class PullRequestState:
    """What the publisher needs to know about a pull request before posting."""

    number: int
    draft: bool
    head_sha: str
    base_sha: str


def fetch_pull_request(ctx: GitHubContext) -> PullRequestState:
    """Read ``ctx.pr`` from GitHub (draft flag, head and base commits)."""
    number = _require_pr(ctx)
    with _client(ctx) as client, _translated_errors(ctx, writing=False):
        pull = client.get_repo(ctx.repository).get_pull(number)
        return PullRequestState(number, bool(pull.draft), pull.head.sha, pull.base.sha)


def pr_is_draft(ctx: GitHubContext) -> bool:
    """True when ``ctx.pr`` is a draft pull request."""
    return fetch_pull_request(ctx).draft


# ------------------------------------------------------------------------ plumbing


@contextmanager
def _client(ctx: GitHubContext) -> Iterator[Github]:
    # Cap retries: PyGithub's default retries 5xx ten times and would sleep up to
    # an hour for a primary rate-limit reset, which holds a CI job hostage.
    retry = GithubRetry(total=3, connect=1, backoff_factor=0.5, max_rate_limit_wait=60)
    _route_pygithub_logging()
    auth = Auth.Token(ctx.token)
    if ctx.pace_requests:
        client = Github(auth=auth, base_url=ctx.api_url, timeout=TIMEOUT_SECONDS, per_page=100, retry=retry, lazy=True)
    else:
        client = Github(
            auth=auth,
            base_url=ctx.api_url,
            timeout=TIMEOUT_SECONDS,
            per_page=100,
            retry=retry,
            lazy=True,
            seconds_between_requests=None,
            seconds_between_writes=None,
        )
    try:
        yield client
    finally:
        client.close()


def _route_pygithub_logging() -> None:
    """Send PyGithub's records through the application's logging configuration.

    On import PyGithub gives its ``github`` logger a stderr handler at INFO, so
    its retry chatter would be printed next to our one-line error whatever the
    CLI's verbosity; without the handler its records propagate like any others.
    """
    package_logger = logging.getLogger("github")
    for handler in list(package_logger.handlers):
        if type(handler) is logging.StreamHandler:
            package_logger.removeHandler(handler)
    package_logger.setLevel(logging.NOTSET)


@contextmanager
def _translated_errors(ctx: GitHubContext, *, writing: bool) -> Iterator[None]:
    """Turn PyGithub and network failures into one-line ``CannotPostComment``."""
    try:
        yield
    except GithubException as exc:
        raise CannotPostComment(_scrub(_http_message(ctx, exc, writing), ctx.token)) from exc
    except OSError as exc:  # requests' ConnectionError and Timeout are OSErrors
        reason = _one_line(str(exc) or type(exc).__name__)
        raise CannotPostComment(
            _scrub(f"Could not reach the GitHub API at {ctx.api_url}: {reason}", ctx.token)
        ) from exc


def _http_message(ctx: GitHubContext, exc: GithubException, writing: bool) -> str:
    status = exc.status
    if isinstance(exc, github.RateLimitExceededException):
        return f"GitHub's API rate limit was exceeded ({status}); the comment was not posted."
    if isinstance(exc, github.BadCredentialsException):
        return f"GitHub rejected the token ({status} Bad credentials); check GITHUB_TOKEN."
    if status == 403 or (status == 404 and writing):
        return f"GitHub refused to post the comment ({status}): {_FORK_HINT}."
    if status == 404:
        return (
            f"GitHub could not find pull request #{ctx.pr} in {ctx.repository} (404): check "
            "GITHUB_REPOSITORY, the PR number, and that the token can read the repository."
        )
    return f"GitHub answered {status} while posting the comment: {_github_says(exc)}"


def _github_says(exc: GithubException) -> str:
    data = exc.data
    message = data.get("message") if isinstance(data, dict) else data
    return _one_line(str(message or exc.message or "no message"))


def _one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _scrub(text: str, token: str) -> str:
    # belt and braces: no code path puts the token in a message, but a server might echo it
    return text.replace(token, "***") if token else text
