"""Cursor pages: ``{ data, cursor }`` with a way to walk the rest."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Generic, TypeVar

from .response import RawResponse

T = TypeVar("T")


class Page(Generic[T]):
    """One page of a list: ``data`` (this page's items) and ``cursor`` (None on the last page).

    Iterating a page yields this page's items; ``auto_paging_iter()`` yields every item of this
    page and of all the following ones, fetching each next page when the previous one is used up.
    """

    def __init__(
        self,
        data: list[T],
        cursor: str | None,
        fetch_next: Callable[[str], Page[T]] | None,
        response: RawResponse | None = None,
    ) -> None:
        self.data = data
        self.cursor = cursor
        self.response = response
        """The HTTP response of this page (status, headers, rate limit)."""
        self._fetch_next = fetch_next

    @property
    def has_more(self) -> bool:
        """True when a next page exists."""
        return self.cursor is not None

    def next_page(self) -> Page[T] | None:
        """The next page, or None on the last one."""
        if self.cursor is None:
            return None
        if self._fetch_next is None:
            raise RuntimeError("This list cannot be continued by the client; pass the cursor yourself.")
        return self._fetch_next(self.cursor)

    def iter_pages(self) -> Iterator[Page[T]]:
        """This page and every following page."""
        page: Page[T] | None = self
        while page is not None:
            yield page
            page = page.next_page()

    def auto_paging_iter(self) -> Iterator[T]:
        """Every item of this page and of the following pages, in order."""
        for page in self.iter_pages():
            yield from page.data

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        return f"Page(items={len(self.data)}, cursor={self.cursor!r})"


class AsyncPage(Generic[T]):
    """One page of a list from the async client: ``data``, ``cursor``, ``await next_page()``,
    ``async for item in page.auto_paging_iter()`` over every item of every page."""

    def __init__(
        self,
        data: list[T],
        cursor: str | None,
        fetch_next: Callable[[str], Awaitable[AsyncPage[T]]] | None,
        response: RawResponse | None = None,
    ) -> None:
        self.data = data
        self.cursor = cursor
        self.response = response
        self._fetch_next = fetch_next

    @property
    def has_more(self) -> bool:
        return self.cursor is not None

    async def next_page(self) -> AsyncPage[T] | None:
        if self.cursor is None:
            return None
        if self._fetch_next is None:
            raise RuntimeError("This list cannot be continued by the client; pass the cursor yourself.")
        return await self._fetch_next(self.cursor)

    async def iter_pages(self) -> AsyncIterator[AsyncPage[T]]:
        page: AsyncPage[T] | None = self
        while page is not None:
            yield page
            page = await page.next_page()

    async def auto_paging_iter(self) -> AsyncIterator[T]:
        async for page in self.iter_pages():
            for item in page.data:
                yield item

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        return f"AsyncPage(items={len(self.data)}, cursor={self.cursor!r})"
