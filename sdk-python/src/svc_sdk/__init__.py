"""Python SDK of the compliance platform API.

    from svc_sdk import Client, NotFoundError

    client = Client()  # SVC_URL and SVC_API_KEY from the environment
    page = client.compliance.assessments.list(limit=50)
    for assessment in page.auto_paging_iter():
        print(assessment["id"])
"""

from __future__ import annotations

from . import webhooks
from ._client import AsyncClient, Client
from ._generated import API_VERSION, WebhookEventType
from ._runtime.async_client import AsyncBaseClient
from ._runtime.client import VERSION, BaseClient, new_idempotency_key
from ._runtime.errors import (
    ERROR_CLASSES,
    BadRequestError,
    ConflictError,
    ErrorDetail,
    ForbiddenError,
    Headers,
    InternalServerError,
    NotFoundError,
    RateLimitedError,
    ServiceUnavailableError,
    SvcConnectionError,
    SvcError,
    UnauthorizedError,
    ValidationFailedError,
)
from ._runtime.pagination import AsyncPage, Page
from ._runtime.response import RateLimit, RawResponse
from .webhooks import WebhookEvent, WebhookVerificationError

__version__ = VERSION

__all__ = [
    "API_VERSION",
    "ERROR_CLASSES",
    "AsyncBaseClient",
    "AsyncClient",
    "AsyncPage",
    "BadRequestError",
    "BaseClient",
    "Client",
    "ConflictError",
    "ErrorDetail",
    "ForbiddenError",
    "Headers",
    "InternalServerError",
    "NotFoundError",
    "Page",
    "RateLimit",
    "RateLimitedError",
    "RawResponse",
    "ServiceUnavailableError",
    "SvcConnectionError",
    "SvcError",
    "UnauthorizedError",
    "ValidationFailedError",
    "WebhookEvent",
    "WebhookEventType",
    "WebhookVerificationError",
    "__version__",
    "new_idempotency_key",
    "webhooks",
]
