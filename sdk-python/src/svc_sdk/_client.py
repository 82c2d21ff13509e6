"""The public client."""

from __future__ import annotations

from ._generated.client import GeneratedAsyncClient, GeneratedClient


class Client(GeneratedClient):
    """Client of the compliance platform API; one attribute per rail.

    >>> client = Client(api_key="svc_test_...", base_url="http://127.0.0.1:8080")
    >>> asm = client.compliance.assessments.create(
    ...     body={"type": "fria", "systemId": "sys_credit_scoring_v2", "jurisdiction": "eu/de"}
    ... )

    Options (all keyword except ``api_key``): ``base_url`` (default ``$SVC_URL``, else
    ``http://127.0.0.1:8080``), ``api_key`` (default ``$SVC_API_KEY``; sent as
    ``Authorization: Bearer``), ``tenant_id`` (sent as ``X-IOF-Tenant``), ``timeout`` (seconds per
    attempt, default 30), ``max_retries`` (after 429, 503 and network failures, default 3),
    ``max_retry_delay`` (cap of any wait, ``Retry-After`` included, default 30 s),
    ``default_headers``.
    """


class AsyncClient(GeneratedAsyncClient):
    """The same API as :class:`Client` with coroutines: ``await client.compliance.assessments.create(...)``;
    list methods return an ``AsyncPage`` (``async for item in page.auto_paging_iter()``). Same options."""
