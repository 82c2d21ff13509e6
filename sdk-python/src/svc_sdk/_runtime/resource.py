"""Base of the generated rail classes."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .async_client import AsyncBaseClient
    from .client import BaseClient


class Resource:
    """A group of operations; every method goes through the client's transport."""

    def __init__(self, client: BaseClient) -> None:
        self._client = client


class AsyncResource:
    """A group of operations of the async client."""

    def __init__(self, client: AsyncBaseClient) -> None:
        self._client = client
