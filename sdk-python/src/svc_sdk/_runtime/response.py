"""What a call's HTTP response said besides its body: status, headers, rate limit."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import Headers


@dataclass(frozen=True)
class RateLimit:
    """The ``X-RateLimit-*`` headers of a response (None when absent)."""

    limit: int | None
    """Requests per second of the plan."""
    remaining: int | None
    """Requests left in the current one-second window."""
    reset: int | None
    """Unix epoch seconds when the window resets."""


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


@dataclass(frozen=True)
class RawResponse:
    """One HTTP response of the API: ``client.last_response`` after a call, ``page.response``."""

    status: int
    headers: Headers
    method: str
    url: str
    attempts: int
    """How many attempts the call took (1 without retries)."""

    @property
    def rate_limit(self) -> RateLimit:
        return RateLimit(
            limit=_int(self.headers.get("x-ratelimit-limit")),
            remaining=_int(self.headers.get("x-ratelimit-remaining")),
            reset=_int(self.headers.get("x-ratelimit-reset")),
        )

    @property
    def correlation_id(self) -> str | None:
        return self.headers.get("x-correlation-id")

    @property
    def idempotent_replayed(self) -> bool:
        """True when the server answered a repeated ``Idempotency-Key`` with the first response."""
        return self.headers.get("idempotent-replayed", "").lower() == "true"
