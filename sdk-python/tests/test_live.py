"""The SDK against a live server, from an installed copy of the package.

Run by test/sdk-python.test.ts, which starts the server and passes, in the environment:
  SVC_URL, SVC_API_KEY        a tenant with a high rate limit
  SVC_TEST_LIMITED_KEY        a tenant limited to 1 request per second
  SVC_TEST_PROXY_URL          a TCP proxy to the server that forwards the first request, then
                              drops the connection before the response reaches the client
  SVC_TEST_FIXTURES           a JSON file: the obligation ids collected over HTTP, and a webhook
                              delivery signed by the TypeScript SDK
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import time
import unittest
import uuid
from typing import Any

import svc_sdk
from svc_sdk import (
    ERROR_CLASSES,
    AsyncClient,
    Client,
    NotFoundError,
    RateLimitedError,
    SvcError,
    ValidationFailedError,
    WebhookVerificationError,
    webhooks,
)
from svc_sdk._generated.error_codes import ERROR_STATUS

URL = os.environ.get("SVC_URL", "")
KEY = os.environ.get("SVC_API_KEY", "")


def fixtures() -> dict[str, Any]:
    with open(os.environ["SVC_TEST_FIXTURES"], encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


class Sleeps:
    """Records the waits of a client's retries (and waits them, shortened to at most 1.1 s)."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        time.sleep(min(seconds, 1.1))


def client(**options: Any) -> tuple[Client, Sleeps]:
    sleeps = Sleeps()
    settings: dict[str, Any] = {"api_key": KEY, "base_url": URL, **options}
    c = Client(**settings)
    c._sleep = sleeps
    return c, sleeps


@unittest.skipUnless(URL and KEY, "needs SVC_URL and SVC_API_KEY of a live server")
class LiveTest(unittest.TestCase):
    def test_installed_copy(self) -> None:
        # Not the source tree: the package pip installed.
        self.assertIn("site-packages", svc_sdk.__file__ or "")

    def test_create_get_and_rate_limit_headers(self) -> None:
        c, sleeps = client()
        created = c.compliance.assessments.create(
            body={"type": "dpia", "systemId": "sys_py_quick", "jurisdiction": "eu/fr"}
        )
        self.assertTrue(created["id"].startswith("asm_"))
        self.assertEqual(created["status"], "draft")
        first = c.last_response
        assert first is not None
        self.assertEqual(first.status, 201)
        self.assertEqual(first.attempts, 1)
        self.assertFalse(first.idempotent_replayed)
        fetched = c.compliance.assessments.get(created["id"])
        self.assertEqual(fetched, created)
        response = c.last_response
        assert response is not None
        self.assertEqual(response.status, 200)
        self.assertIsInstance(response.rate_limit.limit, int)
        self.assertIsInstance(response.rate_limit.remaining, int)
        self.assertGreater(response.rate_limit.reset or 0, time.time() - 5)
        self.assertTrue((response.correlation_id or "").strip())
        self.assertEqual(sleeps.waits, [])

    def test_pagination_sees_every_row_once(self) -> None:
        expected: list[str] = fixtures()["obligationIds"]
        self.assertGreater(len(expected), 20)
        c, _ = client()
        page = c.compliance.obligations.list(limit=7)
        self.assertEqual(len(page.data), 7)
        self.assertIsNotNone(page.cursor)
        self.assertTrue(page.has_more)
        pages = list(page.iter_pages())
        self.assertEqual(len(pages), -(-len(expected) // 7))
        self.assertIsNone(pages[-1].cursor)
        seen = [item["id"] for item in page.auto_paging_iter()]
        self.assertEqual(len(seen), len(set(seen)), "an obligation came twice")
        self.assertEqual(seen, expected)
        # Iterating a page is that page only.
        self.assertEqual([o["id"] for o in page], expected[:7])

    def test_typed_404(self) -> None:
        c, sleeps = client()
        with self.assertRaises(NotFoundError) as caught:
            c.compliance.assessments.get("asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R")
        err = caught.exception
        self.assertIsInstance(err, SvcError)
        self.assertEqual((err.status, err.code), (404, "not_found"))
        self.assertTrue(err.message)
        self.assertTrue(err.correlation_id)
        self.assertEqual(err.correlation_id, err.headers.get("x-correlation-id"))
        self.assertIn("not_found", err.documentation_url or "")
        self.assertEqual(sleeps.waits, [], "a 404 is never retried")

    def test_typed_422_with_details(self) -> None:
        c, sleeps = client()
        body: Any = {"type": "fria", "jurisdiction": "eu/de"}
        with self.assertRaises(ValidationFailedError) as caught:
            c.compliance.assessments.create(body=body)
        err = caught.exception
        self.assertEqual((err.status, err.code), (422, "validation_failed"))
        self.assertIn(("systemId", "missing"), [(d.field, d.issue) for d in err.details])
        self.assertTrue(err.correlation_id)
        self.assertEqual(sleeps.waits, [], "a 422 is never retried")

    def test_error_classes_are_the_spec_codes(self) -> None:
        self.assertEqual(set(ERROR_CLASSES), set(ERROR_STATUS))
        self.assertEqual(len(set(ERROR_CLASSES.values())), len(ERROR_CLASSES))
        for cls in ERROR_CLASSES.values():
            self.assertTrue(issubclass(cls, SvcError))

    def test_429_is_retried_after_retry_after(self) -> None:
        limited_key = os.environ["SVC_TEST_LIMITED_KEY"]
        # Without retries the limit surfaces as a typed error carrying Retry-After.
        bare, _ = client(api_key=limited_key, max_retries=0)
        with self.assertRaises(RateLimitedError) as caught:
            for _ in range(20):
                bare.frameworks.list()
        err = caught.exception
        self.assertEqual((err.status, err.code), (429, "rate_limited"))
        # The per-second limit asks for the next second.
        self.assertEqual(err.retry_after_seconds, 1.0)
        self.assertEqual(err.headers.get("x-ratelimit-limit"), "1")
        # With retries, three calls at one per second all succeed: each waits what the server said.
        c, sleeps = client(api_key=limited_key, max_retries=5)
        attempts = 0
        for _ in range(3):
            page = c.frameworks.list()
            self.assertGreater(len(page.data), 0)
            assert c.last_response is not None
            attempts += c.last_response.attempts
        self.assertGreater(attempts, 3)
        self.assertEqual(len(sleeps.waits), attempts - 3)
        # Each wait is the server's Retry-After, not the client's own backoff (0.25 s to 0.5 s first).
        self.assertEqual(sleeps.waits, [1.0] * len(sleeps.waits))

    def test_post_retried_after_a_dropped_connection_creates_one_record(self) -> None:
        system = f"sys_py_{uuid.uuid4().hex[:12]}"
        through_proxy, sleeps = client(base_url=os.environ["SVC_TEST_PROXY_URL"], max_retries=2)
        created = through_proxy.compliance.assessments.create(
            body={"type": "fria", "systemId": system, "jurisdiction": "eu/de"}
        )
        response = through_proxy.last_response
        assert response is not None
        self.assertEqual(response.attempts, 2, "the first attempt lost its response")
        self.assertEqual(len(sleeps.waits), 1)
        self.assertTrue(response.idempotent_replayed, "the retry got the first attempt's record")
        direct, _ = client()
        rows = direct.compliance.assessments.list(system_id=system).data
        self.assertEqual([r["id"] for r in rows], [created["id"]])
        print(f"dropped-connection system {system}")

    def test_connection_refused_raises_after_retries(self) -> None:
        # A port nothing listens on: refused at once, retried, then SvcConnectionError.
        import socket

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        c, sleeps = client(base_url=f"http://127.0.0.1:{port}", max_retries=2)
        with self.assertRaises(svc_sdk.SvcConnectionError) as caught:
            c.frameworks.list()
        self.assertFalse(caught.exception.timed_out)
        self.assertEqual(len(sleeps.waits), 2)
        self.assertTrue(0.25 <= sleeps.waits[0] <= 0.5 and 0.5 <= sleeps.waits[1] <= 1.0, sleeps.waits)

    def test_silent_server_times_out_per_attempt(self) -> None:
        # A listener that accepts and never answers: each attempt ends at `timeout`.
        import socket

        with socket.socket() as silent:
            silent.bind(("127.0.0.1", 0))
            silent.listen(8)
            port = silent.getsockname()[1]
            c, sleeps = client(base_url=f"http://127.0.0.1:{port}", max_retries=1, timeout=0.3)
            started = time.monotonic()
            with self.assertRaises(svc_sdk.SvcConnectionError) as caught:
                c.frameworks.list()
            elapsed = time.monotonic() - started
        self.assertTrue(caught.exception.timed_out)
        self.assertEqual(len(sleeps.waits), 1)
        self.assertGreaterEqual(elapsed, 0.6)
        self.assertLess(elapsed, 5)

    def test_pdf_downloads_as_bytes(self) -> None:
        c, _ = client()
        types = c.reporting.types().data
        template = next(t["id"] for t in types if not t["requiredInputs"])
        report = c.reporting.generate(body={"template": template})
        deadline = time.time() + 45
        while report["status"] == "rendering" and time.time() < deadline:
            time.sleep(0.2)
            report = c.reporting.get(report["id"])
        self.assertEqual(report["status"], "ready", report.get("error"))
        pdf = c.reporting.export(report["id"])
        assert isinstance(pdf, bytes)
        self.assertTrue(pdf.startswith(b"%PDF-"))
        self.assertEqual(len(pdf), report["sizeBytes"])
        self.assertEqual(hashlib.sha256(pdf).hexdigest(), report["sha256"])
        response = c.last_response
        assert response is not None
        self.assertEqual(response.headers.get("content-type"), "application/pdf")


@unittest.skipUnless(URL and KEY, "needs SVC_URL and SVC_API_KEY of a live server")
class AsyncLiveTest(unittest.TestCase):
    def test_async_client(self) -> None:
        expected: list[str] = fixtures()["obligationIds"]

        async def scenario() -> None:
            async with AsyncClient(api_key=KEY, base_url=URL) as c:
                # Calls run concurrently on the event loop.
                created = await asyncio.gather(
                    *(
                        c.compliance.assessments.create(
                            body={"type": "fria", "systemId": f"sys_async_{i}", "jurisdiction": "eu/de"}
                        )
                        for i in range(4)
                    )
                )
                self.assertEqual(len({a["id"] for a in created}), 4)
                fetched = await c.compliance.assessments.get(created[0]["id"])
                self.assertEqual(fetched["systemId"], "sys_async_0")
                page = await c.compliance.obligations.list(limit=25)
                self.assertIsNotNone(page.response)
                seen = [o["id"] async for o in page.auto_paging_iter()]
                self.assertEqual(seen, expected)
                with self.assertRaises(NotFoundError) as caught:
                    await c.compliance.assessments.get("asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R")
                self.assertTrue(caught.exception.correlation_id)

        asyncio.run(scenario())


class WebhookTest(unittest.TestCase):
    """Deliveries signed by the TypeScript SDK's generateTestHeader, verified here."""

    def setUp(self) -> None:
        if not os.environ.get("SVC_TEST_FIXTURES"):
            self.skipTest("needs SVC_TEST_FIXTURES")
        hook = fixtures()["webhook"]
        self.payload: str = hook["payload"]
        self.header: str = hook["header"]
        self.secret: str = hook["secret"]
        self.timestamp = int(self.header.split(",")[0][2:])

    def test_verifies_a_signed_delivery(self) -> None:
        event = webhooks.verify(self.payload.encode(), self.header, self.secret)
        self.assertEqual(event["specversion"], "1.0")
        self.assertEqual(event["type"], json.loads(self.payload)["type"])
        self.assertTrue(event["id"].startswith("evt_"))
        # A string body, a rotation's list of secrets, and our own header agree.
        self.assertEqual(webhooks.verify(self.payload, self.header, ["whsec_old", self.secret]), event)
        own = webhooks.generate_test_header(self.payload, self.secret, timestamp=self.timestamp)
        self.assertEqual(own, self.header)

    def test_refuses_tampering(self) -> None:
        def reason(body: str, header: str | None, secret: str = self.secret, now: int | None = None) -> str:
            with self.assertRaises(WebhookVerificationError) as caught:
                webhooks.verify(body, header, secret, now=now)
            return caught.exception.reason

        tampered = self.payload.replace('"1.0"', '"1.1"', 1)
        self.assertNotEqual(tampered, self.payload)
        self.assertEqual(reason(tampered, self.header), "signature_mismatch")
        self.assertEqual(reason(self.payload, self.header, "whsec_someone_else"), "signature_mismatch")
        self.assertEqual(reason(self.payload, None), "missing_header")
        self.assertEqual(reason(self.payload, "garbage"), "malformed_header")
        self.assertEqual(reason(self.payload, f"t={self.timestamp}"), "no_signatures")
        self.assertEqual(reason(self.payload, self.header, now=self.timestamp + 301), "timestamp_too_old")
        self.assertEqual(reason(self.payload, self.header, now=self.timestamp - 301), "timestamp_too_new")
        webhooks.verify(self.payload, self.header, self.secret, now=self.timestamp + 300)
        forged = webhooks.generate_test_header(self.payload, self.secret, signature="0" * 64)
        self.assertEqual(reason(self.payload, forged), "signature_mismatch")
        not_json = webhooks.generate_test_header("not json", self.secret)
        self.assertEqual(reason("not json", not_json), "malformed_body")


if __name__ == "__main__":
    unittest.main()
