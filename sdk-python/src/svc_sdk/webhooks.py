"""Webhook verification: ``verify(raw_body, header, secret)`` checks the ``x-svc-signature``
header (``t=<unix>,v1=<hex>``, HMAC-SHA256 of ``"<t>.<raw body>"``) and returns the CloudEvents
envelope; ``generate_test_header(...)`` signs a payload as the dispatcher does, for tests."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Sequence
from typing import Literal, cast

from .types import WebhookEventEnvelope

TOLERANCE_SECONDS = 300
"""Largest accepted distance between the signature's timestamp and now, either way."""

SIGNATURE_HEADER = "x-svc-signature"

WebhookEvent = WebhookEventEnvelope
"""A delivery's body: the CloudEvents 1.0 envelope (``specversion``, ``id``, ``source``, ``type``,
``datacontenttype``, ``time``, ``subject``, ``tenantid``, ``data``)."""

VerificationReason = Literal[
    "missing_header",
    "malformed_header",
    "no_signatures",
    "timestamp_too_old",
    "timestamp_too_new",
    "signature_mismatch",
    "malformed_body",
]

_TIMESTAMP = re.compile(r"^\d{1,12}$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class WebhookVerificationError(Exception):
    """Raised by :func:`verify`; ``reason`` says which check failed. Answer the delivery with a 4xx."""

    def __init__(self, reason: VerificationReason, message: str) -> None:
        super().__init__(message)
        self.reason: VerificationReason = reason


def _bytes(value: bytes | bytearray | memoryview | str) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def _sign(secret: str, timestamp: str, body: bytes) -> str:
    return hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + body, hashlib.sha256).hexdigest()


def verify(
    raw_body: bytes | bytearray | memoryview | str,
    header: str | None,
    secret: str | Sequence[str],
    *,
    tolerance_seconds: int = TOLERANCE_SECONDS,
    now: int | None = None,
) -> WebhookEvent:
    """Verify one delivery and return its parsed envelope.

    - ``raw_body``: the request body exactly as received, never a re-serialised copy;
    - ``header``: the ``x-svc-signature`` header, ``t=<unix>,v1=<hex>`` (several ``v1`` during a
      secret rotation);
    - ``secret``: the subscription's ``whsec_...`` secret, or several while you roll your own.

    The timestamp must lie within ``tolerance_seconds`` (default 300) of now, past or future; any
    ``v1`` may match any secret; comparisons are constant-time. Deduplicate by the envelope's
    ``id``: delivery is at least once.

    :raises WebhookVerificationError: with ``reason`` naming the failed check.
    """
    if not header:
        raise WebhookVerificationError("missing_header", "The x-svc-signature header is missing.")
    timestamp: str | None = None
    signatures: list[str] = []
    for item in header.split(","):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise WebhookVerificationError(
                "malformed_header", "The signature header must be `t=<unix>,v1=<hex>[,v1=<hex>]`."
            )
        key, value = key.strip(), value.strip()
        if key == "t":
            timestamp = value
        elif key == "v1":
            signatures.append(value)
    if timestamp is None or not _TIMESTAMP.match(timestamp):
        raise WebhookVerificationError("malformed_header", "The signature header has no valid `t=` timestamp.")
    if not signatures:
        raise WebhookVerificationError("no_signatures", "The signature header has no `v1=` signature.")
    current = int(time.time()) if now is None else now
    t = int(timestamp)
    if current - t > tolerance_seconds:
        raise WebhookVerificationError("timestamp_too_old", f"The signature is older than {tolerance_seconds} s.")
    if t - current > tolerance_seconds:
        raise WebhookVerificationError(
            "timestamp_too_new", f"The signature is more than {tolerance_seconds} s in the future."
        )
    body = _bytes(raw_body)
    secrets = [secret] if isinstance(secret, str) else list(secret)
    matched = False
    for candidate in secrets:
        expected = _sign(candidate, timestamp, body)
        for signature in signatures:
            # Every pair is compared, matched or not, so timing does not tell which one matched.
            if _HEX64.match(signature) and hmac.compare_digest(expected, signature):
                matched = True
    if not matched:
        raise WebhookVerificationError("signature_mismatch", "No signature matches the body and secret.")
    try:
        parsed = json.loads(body)
    except ValueError:
        raise WebhookVerificationError("malformed_body", "The body is not JSON.") from None
    if not isinstance(parsed, dict):
        raise WebhookVerificationError("malformed_body", "The body is not a JSON object.")
    return cast(WebhookEvent, parsed)


def generate_test_header(
    payload: bytes | str,
    secret: str | Sequence[str],
    *,
    timestamp: int | None = None,
    signature: str | None = None,
) -> str:
    """An ``x-svc-signature`` header for ``payload`` as the dispatcher would send it (one ``v1``
    per secret), to test a webhook handler without a server. ``signature`` replaces the computed
    value (to test a mismatch)."""
    t = str(int(time.time()) if timestamp is None else timestamp)
    secrets = [secret] if isinstance(secret, str) else list(secret)
    values = [signature] if signature is not None else [_sign(s, t, _bytes(payload)) for s in secrets]
    return ",".join([f"t={t}", *(f"v1={v}" for v in values)])


__all__ = [
    "SIGNATURE_HEADER",
    "TOLERANCE_SECONDS",
    "VerificationReason",
    "WebhookEvent",
    "WebhookVerificationError",
    "generate_test_header",
    "verify",
]
