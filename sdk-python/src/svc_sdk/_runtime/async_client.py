"""The asynchronous client: the same calls as :class:`BaseClient` as coroutines. Each attempt's
blocking ``http.client`` exchange runs in a worker thread (``asyncio.to_thread``), so the event
loop stays free and many calls can run at once; waits between attempts are ``asyncio.sleep``."""

from __future__ import annotations

import asyncio
import http.client
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from .client import ClientCore, next_page_request, page_parts
from .errors import Headers
from .pagination import AsyncPage
from .response import RawResponse

_AsyncClient = TypeVar("_AsyncClient", bound="AsyncBaseClient")


class AsyncBaseClient(ClientCore):
    """The asynchronous client (``await client.compliance.assessments.create(...)``)."""

    _async_sleep: Callable[[float], Awaitable[None]] = staticmethod(asyncio.sleep)
    _last: RawResponse | None = None

    async def __aenter__(self: _AsyncClient) -> _AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Nothing to release: each attempt uses its own connection."""

    @property
    def last_response(self) -> RawResponse | None:
        """The HTTP response of the last call of this client to succeed, whichever task made it
        (with concurrent calls, prefer ``page.response`` or a client per task)."""
        return self._last

    def _record(self, response: RawResponse) -> None:
        self._last = response

    async def request(
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
        """An untyped call, as :meth:`BaseClient.request`."""
        return await self._request(
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

    async def _request(
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
                outcome = await asyncio.to_thread(
                    self._send_once, call.verb, call.target, call.headers, call.payload, call.timeout
                )
            except (OSError, http.client.HTTPException) as exc:
                outcome = exc
            done, value = self._decide(call, attempt, outcome)
            if done:
                return value
            await self._async_sleep(value)

    async def _request_page(
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
    ) -> AsyncPage[Any]:
        result = await self._request(
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
        response = self._last
        data, cursor = page_parts(result, method, path)

        async def fetch_next(next_cursor: str) -> AsyncPage[Any]:
            next_query, next_body = next_page_request(query, body, cursor_in, next_cursor)
            return await self._request_page(
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

        return AsyncPage(data, cursor, fetch_next if cursor_in is not None else None, response)
