"""Typed errors: one class per error code of the API, chosen from the envelope's ``error``."""

from __future__ import annotations

import email.utils
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .._generated.error_codes import ERROR_STATUS


@dataclass(frozen=True)
class ErrorDetail:
    """One entry of an error envelope's ``details``: which field failed and how."""

    field: str
    """Dotted path of the offending field, header or parameter (``systemId``, ``attester.email``)."""
    issue: str
    """``missing``, ``invalid_type``, ``too_small``, ``unknown_field``, ... or a code-specific word."""
    message: str | None = None
    """Human-readable explanation, when the server gives one."""


class Headers(Mapping[str, str]):
    """Response headers, case-insensitive (``headers["x-ratelimit-remaining"]``)."""

    def __init__(self, items: Mapping[str, str] | list[tuple[str, str]] | None = None) -> None:
        self._items: dict[str, str] = {}
        pairs = items.items() if isinstance(items, Mapping) else (items or [])
        for key, value in pairs:
            lower = key.lower()
            # Repeated headers are joined as HTTP allows (`a, b`).
            self._items[lower] = f"{self._items[lower]}, {value}" if lower in self._items else value

    def __getitem__(self, key: str) -> str:
        return self._items[key.lower()]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.lower() in self._items

    def __repr__(self) -> str:
        return f"Headers({self._items!r})"


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """``Retry-After`` in seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    value = (headers.get("retry-after") or "").strip()
    if not value:
        return None
    try:
        seconds = float(value)
        return seconds if seconds >= 0 else None
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class SvcError(Exception):
    """An error response of the API (any non-2xx status).

    Subclasses name the error code (``except NotFoundError``), or compare ``err.code``.
    """

    status: int
    """HTTP status of the response."""
    code: str
    """Machine code of the envelope (``not_found``, ``validation_failed``, ...)."""
    message: str
    """Human-readable explanation; may change, do not parse."""
    correlation_id: str | None
    """Correlation id to quote to support: the body's ``correlation_id``, else the ``X-Correlation-Id`` header."""
    details: list[ErrorDetail]
    """Field-level issues; empty when the server sent none."""
    documentation_url: str | None
    headers: Headers
    """Response headers (rate-limit headers, ``Retry-After``, ...)."""
    body: Any
    """The response body as received (parsed JSON, text, or None)."""

    def __init__(
        self,
        *,
        status: int,
        code: str,
        message: str,
        correlation_id: str | None = None,
        details: list[ErrorDetail] | None = None,
        documentation_url: str | None = None,
        headers: Headers | None = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.correlation_id = correlation_id
        self.details = list(details or [])
        self.documentation_url = documentation_url
        self.headers = headers if headers is not None else Headers()
        self.body = body

    def __str__(self) -> str:
        suffix = f" (correlation id {self.correlation_id})" if self.correlation_id else ""
        return f"{self.status} {self.code}: {self.message}{suffix}"


class BadRequestError(SvcError):
    """400 ``bad_request``: malformed JSON, a bad cursor or a malformed header."""


class UnauthorizedError(SvcError):
    """401 ``unauthorized``: the bearer token is missing, unknown, expired or revoked."""


class ForbiddenError(SvcError):
    """403 ``forbidden``: the credential lacks the tier, role, scope or tenant the route needs."""


class NotFoundError(SvcError):
    """404 ``not_found``: the resource or route does not exist, or is not visible to the caller."""


class ConflictError(SvcError):
    """409 ``conflict``: a state conflict, or an idempotency key reused for another request or in flight."""


class ValidationFailedError(SvcError):
    """422 ``validation_failed``: the request does not match the schema; ``details`` names each field."""


class RateLimitedError(SvcError):
    """429 ``rate_limited``: the plan's per-second limit or the monthly quota is exhausted."""

    @property
    def retry_after_seconds(self) -> float | None:
        """Seconds the server asked to wait (``Retry-After``); None when it gave none."""
        return retry_after_seconds(self.headers)


class InternalServerError(SvcError):
    """500 ``internal_error``: the server failed; quote ``correlation_id`` to support."""


class ServiceUnavailableError(SvcError):
    """503 ``service_unavailable``: a dependency is degraded; retried automatically with backoff."""


class SvcConnectionError(Exception):
    """The request never produced an HTTP response (connection refused or reset, dropped
    connection, or the per-attempt timeout: ``timed_out``). Raised after the retries are spent.
    Not an :class:`SvcError`: there is no status and no envelope."""

    def __init__(self, message: str, *, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


ERROR_CLASSES: dict[str, type[SvcError]] = {
    "bad_request": BadRequestError,
    "unauthorized": UnauthorizedError,
    "forbidden": ForbiddenError,
    "not_found": NotFoundError,
    "conflict": ConflictError,
    "validation_failed": ValidationFailedError,
    "rate_limited": RateLimitedError,
    "internal_error": InternalServerError,
    "service_unavailable": ServiceUnavailableError,
}
"""The class of each error code; the one place codes meet classes."""

_CODE_BY_STATUS = {status: code for code, status in ERROR_STATUS.items()}


def _code_for_status(status: int) -> str:
    if status in _CODE_BY_STATUS:
        return _CODE_BY_STATUS[status]
    return "internal_error" if status >= 500 else "bad_request"


def error_from_response(status: int, body: Any, headers: Headers) -> SvcError:
    """The typed error of a non-2xx response: the class follows the envelope's ``error`` code, or
    the status when the body is not an envelope (a proxy's HTML page, say)."""
    envelope: dict[str, Any] = body if isinstance(body, dict) else {}
    code = envelope.get("error") if isinstance(envelope.get("error"), str) else _code_for_status(status)
    assert isinstance(code, str)
    message = envelope.get("message")
    if not isinstance(message, str):
        message = f"HTTP {status}" + (f": {body[:200]}" if isinstance(body, str) and body else "")
    details: list[ErrorDetail] = []
    raw_details = envelope.get("details")
    if isinstance(raw_details, list):
        for item in raw_details:
            if isinstance(item, dict):
                text = item.get("message")
                details.append(
                    ErrorDetail(
                        field=str(item.get("field", "")),
                        issue=str(item.get("issue", "")),
                        message=text if isinstance(text, str) else None,
                    )
                )
    correlation = envelope.get("correlation_id")
    doc = envelope.get("documentation_url")
    cls = ERROR_CLASSES.get(code, SvcError)
    return cls(
        status=status,
        code=code,
        message=message,
        correlation_id=correlation if isinstance(correlation, str) else headers.get("x-correlation-id"),
        details=details,
        documentation_url=doc if isinstance(doc, str) else None,
        headers=headers,
        body=body,
    )
