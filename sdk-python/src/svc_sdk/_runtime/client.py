"""The transport every generated method goes through: auth headers, idempotency keys, timeouts,
retries with backoff, typed errors, pages. Standard library only (``http.client``)."""

from __future__ import annotations

import http.client
import json
import os
import platform
import random
import ssl
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote, urlencode, urlsplit

from .errors import Headers, SvcConnectionError, error_from_response, retry_after_seconds
from .pagination import Page
from .response import RawResponse

VERSION = "0.1.0"
DEFAULT_BASE_URL = "http://127.0.0.1:8080"
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 3
DEFAULT_MAX_RETRY_DELAY = 30.0
INITIAL_RETRY_DELAY = 0.5
RETRYABLE_STATUSES = frozenset({429, 503})
USER_AGENT = f"svc-sdk-python/{VERSION} (Python {platform.python_version()})"

_Client = TypeVar("_Client", bound="BaseClient")


@dataclass(frozen=True)
class PreparedCall:
    verb: str
    path: str
    target: str
    headers: dict[str, str]
    payload: bytes | None
    timeout: float
    binary: bool


def new_idempotency_key() -> str:
    """A fresh ``Idempotency-Key``: ``idk_<uuid4>``."""
    return f"idk_{uuid.uuid4()}"


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def encode_query(query: Mapping[str, Any] | None) -> str:
    """``a=1&b=x``: None is left out, lists and tuples repeat the key, booleans are ``true``/``false``."""
    pairs: list[tuple[str, str]] = []
    for key, value in (query or {}).items():
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            pairs.extend((key, _query_value(item)) for item in value if item is not None)
        else:
            pairs.append((key, _query_value(value)))
    return urlencode(pairs)


def fill_path(template: str, params: Mapping[str, Any] | None) -> str:
    """``/v1/x/{id}`` with each ``{name}`` URL-encoded; a missing parameter raises ``ValueError``."""
    path = template
    for name, value in (params or {}).items():
        if value is None or value == "":
            raise ValueError(f"Missing path parameter {name!r} for {template}")
        path = path.replace("{" + name + "}", quote(str(value), safe=""))
    if "{" in path:
        raise ValueError(f"Missing path parameter in {path}")
    return path


class ClientCore:
    """Configuration, request preparation and retry decisions shared by the sync and async clients.

    ``api_key`` and ``base_url`` default to the ``SVC_API_KEY`` and ``SVC_URL`` environment
    variables (``base_url`` then to ``http://127.0.0.1:8080``).
    """

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        tenant_id: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        max_retry_delay: float = DEFAULT_MAX_RETRY_DELAY,
        default_headers: Mapping[str, str] | None = None,
    ) -> None:
        key = api_key if api_key is not None else os.environ.get("SVC_API_KEY")
        if not key:
            raise ValueError("No API key: pass api_key=... or set SVC_API_KEY.")
        url = (base_url or os.environ.get("SVC_URL") or DEFAULT_BASE_URL).rstrip("/")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be an http(s) URL, got {url!r}")
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        if max_retries < 0 or max_retry_delay < 0:
            raise ValueError("max_retries and max_retry_delay must not be negative")
        self.api_key = key
        self.base_url = url
        self.tenant_id = tenant_id
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.max_retry_delay = float(max_retry_delay)
        self.default_headers: dict[str, str] = dict(default_headers or {})
        self._scheme = parts.scheme
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path.rstrip("/")
        self._local = threading.local()
        # Replaceable in tests; called with the seconds to wait between attempts.
        self._sleep: Callable[[float], None] = time.sleep
        self._init_resources()

    def _init_resources(self) -> None:
        """Overridden by the generated client to attach the rails."""

    def _record(self, response: RawResponse) -> None:
        """Keeps the response of a successful call for ``last_response``."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r})"

    def _prepare(
        self,
        method: str,
        path: str,
        path_params: Mapping[str, Any] | None,
        query: Mapping[str, Any] | None,
        body: Any,
        idempotency_key: str | None,
        extra_headers: Mapping[str, str] | None,
        timeout: float | None,
        binary: bool,
    ) -> PreparedCall:
        """URL, headers and body of one call, the same for each of its attempts."""
        verb = method.upper()
        target = self._prefix + fill_path(path if path.startswith("/") else "/" + path, path_params)
        qs = encode_query(query)
        if qs:
            target += ("&" if "?" in target else "?") + qs
        headers: dict[str, str] = {"accept": "application/json", "user-agent": USER_AGENT}
        for name, value in self.default_headers.items():
            headers[name.lower()] = value
        headers["authorization"] = f"Bearer {self.api_key}"
        if self.tenant_id:
            headers["x-iof-tenant"] = self.tenant_id
        for name, value in (extra_headers or {}).items():
            headers[name.lower()] = value
        # One key per call, the same on every retry of it: the server runs a retried POST once.
        if idempotency_key is not None:
            headers["idempotency-key"] = idempotency_key
        elif verb == "POST" and "idempotency-key" not in headers:
            headers["idempotency-key"] = new_idempotency_key()
        payload: bytes | None = None
        if body is not None:
            payload = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
            headers.setdefault("content-type", "application/json")
        elif verb in ("POST", "PUT", "PATCH"):
            headers["content-length"] = "0"
        budget = self.timeout if timeout is None else float(timeout)
        return PreparedCall(verb, path, target, headers, payload, budget, binary)

    def _decide(
        self, call: PreparedCall, attempt: int, outcome: tuple[int, Headers, bytes] | BaseException
    ) -> tuple[bool, Any]:
        """After one attempt: ``(True, body)`` to return, ``(False, seconds)`` to wait and retry;
        raises the typed error when the call is over."""
        if isinstance(outcome, BaseException):
            if isinstance(outcome, ssl.SSLCertVerificationError):
                raise SvcConnectionError(f"{call.verb} {call.path}: {outcome}") from outcome
            timed_out = isinstance(outcome, TimeoutError)
            if attempt > self.max_retries:
                reason = f"no response within {call.timeout} s" if timed_out else f"{type(outcome).__name__}: {outcome}"
                raise SvcConnectionError(f"{call.verb} {call.path}: {reason}", timed_out=timed_out) from outcome
            return False, self._backoff(attempt)
        status, response_headers, raw = outcome
        parsed = _parse_body(raw, response_headers, call.binary)
        if 200 <= status < 300:
            url = self._origin() + call.target
            self._record(RawResponse(status=status, headers=response_headers, method=call.verb, url=url, attempts=attempt))
            return True, parsed
        error = error_from_response(status, parsed, response_headers)
        if status not in RETRYABLE_STATUSES or attempt > self.max_retries:
            raise error
        wait = retry_after_seconds(response_headers)
        return False, min(wait, self.max_retry_delay) if wait is not None else self._backoff(attempt)

    def _backoff(self, attempt: int) -> float:
        base: float = min(self.max_retry_delay, INITIAL_RETRY_DELAY * 2 ** (attempt - 1))
        # Between half and all of the step, so clients that failed together spread out.
        return base * (0.5 + random.random() * 0.5)

    def _origin(self) -> str:
        port = f":{self._port}" if self._port else ""
        return f"{self._scheme}://{self._host}{port}"

    def _send_once(
        self, method: str, target: str, headers: Mapping[str, str], payload: bytes | None, timeout: float
    ) -> tuple[int, Headers, bytes]:
        conn: http.client.HTTPConnection
        if self._scheme == "https":
            conn = http.client.HTTPSConnection(self._host, self._port, timeout=timeout)
        else:
            conn = http.client.HTTPConnection(self._host, self._port, timeout=timeout)
        try:
            conn.request(method, target, body=payload, headers=dict(headers))
            response = conn.getresponse()
            raw = response.read()
            return response.status, Headers(response.getheaders()), raw
        finally:
            conn.close()



def page_parts(result: Any, method: str, path: str) -> tuple[list[Any], str | None]:
    """``data`` and ``cursor`` of a list response."""
    if not isinstance(result, dict) or not isinstance(result.get("data"), list):
        raise TypeError(f"{method} {path}: expected a page {{ data, cursor }}, got {type(result).__name__}")
    cursor = result.get("cursor")
    return list(result["data"]), cursor if isinstance(cursor, str) else None


def next_page_request(
    query: Mapping[str, Any] | None, body: Any, cursor_in: str | None, cursor: str
) -> tuple[dict[str, Any], Any]:
    """Query and body of the page after ``cursor``: the cursor goes where the operation takes it."""
    next_query = dict(query or {})
    if cursor_in == "query":
        next_query["cursor"] = cursor
        return next_query, body
    return next_query, {**(body or {}), "cursor": cursor}


class BaseClient(ClientCore):
    """The synchronous client: each call blocks until its answer (retries included)."""

    def __enter__(self: _Client) -> _Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Nothing to release: each attempt uses its own connection."""

    @property
    def last_response(self) -> RawResponse | None:
        """The HTTP response of this thread's last successful call (status, headers, ``rate_limit``,
        ``correlation_id``, ``idempotent_replayed``); None before the first."""
        value = getattr(self._local, "last_response", None)
        return value if isinstance(value, RawResponse) else None

    # ------------------------------------------------------------------ public raw access

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        idempotency_key: str | None = None,
        extra_headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> Any:
        """An untyped call (``client.request("GET", "/v1/health")``): the parsed JSON body, text,
        bytes for files, or None when empty. Retries and errors as for every method."""
        return self._request(
            method,
            path,
            path_params=None,
            query=query,
            body=body,
            idempotency_key=idempotency_key,
            extra_headers=extra_headers,
            timeout=timeout,
            binary=True,
        )

    # ------------------------------------------------------------------ used by generated code

    def _request_page(
        self,
        method: str,
        path: str,
        *,
        path_params: Mapping[str, Any] | None,
        query: Mapping[str, Any] | None,
        body: Any,
        idempotency_key: str | None,
        extra_headers: Mapping[str, str] | None,
        timeout: float | None,
        cursor_in: str | None,
    ) -> Page[Any]:
        result = self._request(
            method,
            path,
            path_params=path_params,
            query=query,
            body=body,
            idempotency_key=idempotency_key,
            extra_headers=extra_headers,
            timeout=timeout,
            binary=False,
        )
        data, cursor = page_parts(result, method, path)

        def fetch_next(next_cursor: str) -> Page[Any]:
            next_query, next_body = next_page_request(query, body, cursor_in, next_cursor)
            # Each page is its own request: a fresh idempotency key.
            return self._request_page(
                method,
                path,
                path_params=path_params,
                query=next_query,
                body=next_body,
                idempotency_key=None,
                extra_headers=extra_headers,
                timeout=timeout,
                cursor_in=cursor_in,
            )

        return Page(data, cursor, fetch_next if cursor_in is not None else None, self.last_response)

    def _request(
        self,
        method: str,
        path: str,
        *,
        path_params: Mapping[str, Any] | None,
        query: Mapping[str, Any] | None,
        body: Any,
        idempotency_key: str | None,
        extra_headers: Mapping[str, str] | None,
        timeout: float | None,
        binary: bool,
    ) -> Any:
        call = self._prepare(method, path, path_params, query, body, idempotency_key, extra_headers, timeout, binary)
        attempt = 0
        while True:
            attempt += 1
            outcome: tuple[int, Headers, bytes] | BaseException
            try:
                outcome = self._send_once(call.verb, call.target, call.headers, call.payload, call.timeout)
            except (OSError, http.client.HTTPException) as exc:
                outcome = exc
            done, value = self._decide(call, attempt, outcome)
            if done:
                return value
            self._sleep(value)

    def _record(self, response: RawResponse) -> None:
        self._local.last_response = response


def _parse_body(raw: bytes, headers: Headers, binary: bool) -> Any:
    if not raw:
        return None
    content_type = headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "application/json" or content_type.endswith("+json"):
        try:
            return json.loads(raw)
        except ValueError:
            return raw.decode("utf-8", "replace")
    if binary:
        return raw
    return raw.decode("utf-8", "replace")
