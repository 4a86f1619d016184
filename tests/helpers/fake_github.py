"""A small, real GitHub REST server for tests: exactly the endpoints impactbot calls.

It runs ``http.server.ThreadingHTTPServer`` on 127.0.0.1 (port 0) in a thread, so
PyGithub talks to it over real HTTP, the way it talks to a GitHub Enterprise
server. State (comments, pull requests) lives in memory; every request is
recorded with its method, path, query, headers and body.

Endpoints, all under an optional path prefix (``/api/v3`` for Enterprise style):

    GET    /user
    GET    /repos/{owner}/{repo}
    GET    /repos/{owner}/{repo}/pulls/{n}
    GET    /repos/{owner}/{repo}/issues/{n}
    GET    /repos/{owner}/{repo}/issues/{n}/comments   (paginated, Link headers)
    POST   /repos/{owner}/{repo}/issues/{n}/comments
    PATCH  /repos/{owner}/{repo}/issues/comments/{id}
    DELETE /repos/{owner}/{repo}/issues/comments/{id}

Use the ``fake_github`` fixture, or ``running_fake_github()`` as a context manager.
"""

from __future__ import annotations

import json
import re
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

OWNER = "octo"
NAME = "widgets"
REPOSITORY = f"{OWNER}/{NAME}"
TOKEN = "ghs_fakeTokenValue0123456789abcdefABCDEF"
BOT_LOGIN = "github-actions[bot]"
OTHER_LOGIN = "mona"

_EPOCH = datetime(2024, 5, 1, 12, 0, 0, tzinfo=timezone.utc)
_FORBIDDEN = "Resource not accessible by integration"


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str  # without the prefix and the query
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes


@dataclass
class FakeComment:
    id: int
    pr: int
    login: str
    body: str
    created_at: datetime
    updated_at: datetime


@dataclass
class FakePull:
    number: int
    draft: bool = False
    head_sha: str = "1" * 40
    base_sha: str = "2" * 40


@dataclass
class FakeGitHub:
    """The server's state and switches; tests read and change it directly."""

    prefix: str = ""
    tokens: dict[str, str] = field(default_factory=lambda: {TOKEN: BOT_LOGIN})
    pulls: dict[int, FakePull] = field(default_factory=lambda: {7: FakePull(7)})
    comments: list[FakeComment] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)
    forbid_writes: bool = False  # a fork PR's read-only token
    forbid_user: bool = False  # a GitHub App token: GET /user answers 403
    fail_writes: tuple[int, str] | None = None  # (status, message) for every write
    port: int = 0
    _next_id: int = 1000
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.prefix}"

    def add_comment(self, pr: int, body: str, login: str = BOT_LOGIN) -> int:
        """Put a comment on a PR as ``login`` (as if posted earlier); returns its id."""
        with self._lock:
            self._next_id += 1
            stamp = _EPOCH + timedelta(minutes=self._next_id - 1000)
            self.comments.append(FakeComment(self._next_id, pr, login, body, stamp, stamp))
            return self._next_id

    def comments_on(self, pr: int) -> list[FakeComment]:
        return [c for c in self.comments if c.pr == pr]

    def writes(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method in {"POST", "PATCH", "DELETE"}]

    # ------------------------------------------------------------------ routing

    def handle(
        self, method: str, path: str, query: dict[str, list[str]], body: bytes, auth: str
    ) -> tuple[int, Any, dict[str, str]]:
        """Answer one request: (status, JSON payload or None, extra headers)."""
        login = self.tokens.get(auth.split(" ", 1)[-1]) if auth else None
        if login is None:
            return 401, {"message": "Bad credentials"}, {}
        if path == "/user" and method == "GET":
            if self.forbid_user:
                return 403, {"message": _FORBIDDEN}, {}
            return 200, _user(login), {}
        match = re.fullmatch(rf"/repos/{OWNER}/{NAME}(/.*)?", path)
        if match is None:
            return 404, {"message": "Not Found"}, {}
        return self._repository_route(method, match.group(1) or "", query, body, login)

    def _repository_route(
        self, method: str, rest: str, query: dict[str, list[str]], body: bytes, login: str
    ) -> tuple[int, Any, dict[str, str]]:
        if method != "GET" and self.forbid_writes:
            return 403, {"message": _FORBIDDEN}, {}
        if method != "GET" and self.fail_writes:
            return self.fail_writes[0], {"message": self.fail_writes[1]}, {}
        if rest == "" and method == "GET":
            return 200, self._repository(), {}
        if m := re.fullmatch(r"/pulls/(\d+)", rest):
            pull = self.pulls.get(int(m.group(1)))
            return (200, self._pull(pull), {}) if pull and method == "GET" else _not_found()
        if m := re.fullmatch(r"/issues/(\d+)(/comments)?", rest):
            return self._issue_route(method, int(m.group(1)), bool(m.group(2)), query, body, login)
        if m := re.fullmatch(r"/issues/comments/(\d+)", rest):
            return self._comment_route(method, int(m.group(1)), body)
        return _not_found()

    def _issue_route(
        self, method: str, number: int, comments: bool, query: dict[str, list[str]], body: bytes, login: str
    ) -> tuple[int, Any, dict[str, str]]:
        if number not in self.pulls:
            return _not_found()
        if not comments:
            return (200, self._issue(number), {}) if method == "GET" else _not_found()
        if method == "GET":
            return self._comment_page(number, query)
        if method == "POST":
            text = json.loads(body)["body"]
            new_id = self.add_comment(number, text, login)
            return 201, self._comment(self._find(new_id)), {}
        return _not_found()

    def _comment_route(self, method: str, comment_id: int, body: bytes) -> tuple[int, Any, dict[str, str]]:
        comment = self._find(comment_id)
        if comment is None:
            return _not_found()
        if method == "GET":
            return 200, self._comment(comment), {}
        if method == "PATCH":
            comment.body = json.loads(body)["body"]
            comment.updated_at = _EPOCH + timedelta(days=1, seconds=len(self.requests))
            return 200, self._comment(comment), {}
        if method == "DELETE":
            with self._lock:
                self.comments.remove(comment)
            return 204, None, {}
        return _not_found()

    def _comment_page(self, number: int, query: dict[str, list[str]]) -> tuple[int, Any, dict[str, str]]:
        per_page = int(query.get("per_page", ["30"])[0])
        page = int(query.get("page", ["1"])[0])
        everything = self.comments_on(number)
        chunk = everything[(page - 1) * per_page : page * per_page]
        last = max(1, -(-len(everything) // per_page))
        headers = {}
        if last > 1:
            base = f"{self.api_url}/repos/{OWNER}/{NAME}/issues/{number}/comments"
            links = []
            if page < last:
                links.append(f'<{base}?per_page={per_page}&page={page + 1}>; rel="next"')
                links.append(f'<{base}?per_page={per_page}&page={last}>; rel="last"')
            if page > 1:
                links.append(f'<{base}?per_page={per_page}&page={page - 1}>; rel="prev"')
                links.append(f'<{base}?per_page={per_page}&page=1>; rel="first"')
            headers["Link"] = ", ".join(links)
        return 200, [self._comment(c) for c in chunk], headers

    # ---------------------------------------------------------------- payloads

    def _find(self, comment_id: int) -> FakeComment | None:
        return next((c for c in self.comments if c.id == comment_id), None)

    def _repository(self) -> dict[str, Any]:
        return {
            "id": 1,
            "name": NAME,
            "full_name": REPOSITORY,
            "owner": _user(OWNER),
            "url": f"{self.api_url}/repos/{REPOSITORY}",
            "default_branch": "main",
        }

    def _pull(self, pull: FakePull) -> dict[str, Any]:
        return {
            "number": pull.number,
            "draft": pull.draft,
            "state": "open",
            "url": f"{self.api_url}/repos/{REPOSITORY}/pulls/{pull.number}",
            "head": {"sha": pull.head_sha, "ref": "feature"},
            "base": {"sha": pull.base_sha, "ref": "main"},
        }

    def _issue(self, number: int) -> dict[str, Any]:
        url = f"{self.api_url}/repos/{REPOSITORY}/issues/{number}"
        return {
            "number": number,
            "url": url,
            "state": "open",
            "pull_request": {"url": f"{self.api_url}/repos/{REPOSITORY}/pulls/{number}"},
        }

    def _comment(self, comment: FakeComment | None) -> dict[str, Any]:
        assert comment is not None
        return {
            "id": comment.id,
            "url": f"{self.api_url}/repos/{REPOSITORY}/issues/comments/{comment.id}",
            "html_url": f"https://github.example/{REPOSITORY}/pull/{comment.pr}#issuecomment-{comment.id}",
            "issue_url": f"{self.api_url}/repos/{REPOSITORY}/issues/{comment.pr}",
            "body": comment.body,
            "user": _user(comment.login),
            "created_at": _iso(comment.created_at),
            "updated_at": _iso(comment.updated_at),
        }


def _user(login: str) -> dict[str, Any]:
    kind = "Bot" if login.endswith("[bot]") else "User"
    return {"login": login, "id": zlib.crc32(login.encode()), "type": kind}


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _not_found() -> tuple[int, Any, dict[str, str]]:
    return 404, {"message": "Not Found"}, {}


# ---------------------------------------------------------------------- server


def _handler_for(fake: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        # keep-alive, as PyGithub's connection pool expects
        protocol_version = "HTTP/1.1"

        def _serve(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            path = parts.path
            if fake.prefix and path.startswith(fake.prefix):
                path = path[len(fake.prefix) :]
            elif fake.prefix:
                path = "/<outside-prefix>" + path
            query = parse_qs(parts.query)
            fake.requests.append(RecordedRequest(self.command, path, query, dict(self.headers.items()), body))
            status, payload, extra = fake.handle(self.command, path, query, body, self.headers.get("Authorization", ""))
            self._reply(status, payload, extra)

        def _reply(self, status: int, payload: Any, extra: dict[str, str]) -> None:
            data = b"" if payload is None else json.dumps(payload).encode()
            self.send_response(status)
            if payload is not None:
                self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for name, value in extra.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PATCH = do_DELETE = _serve

        def log_message(self, format: str, *args: Any) -> None:
            # the default writes every request to stderr
            return

    return Handler


@contextmanager
def running_fake_github(prefix: str = "") -> Iterator[FakeGitHub]:
    """Serve a fresh FakeGitHub on 127.0.0.1 for the duration of the block."""
    fake = FakeGitHub(prefix=prefix)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(fake))
    server.daemon_threads = True
    fake.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), name="fake-github", daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(name="fake_github")
def fake_github_fixture() -> Iterator[FakeGitHub]:
    """A running fake GitHub API; ``fake_github.api_url`` is its base URL."""
    with running_fake_github() as fake:
        yield fake
