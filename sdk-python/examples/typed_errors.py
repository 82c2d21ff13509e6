"""Typed errors: every non-2xx answer is a subclass of SvcError; a 422 names each failing field."""

from __future__ import annotations

from typing import Any

from env import api_key, base_url

from svc_sdk import Client, SvcError, ValidationFailedError

client = Client(api_key=api_key, base_url=base_url)

# What an untyped caller might send: the body lacks `systemId` (mypy would refuse it as a
# CreateAssessmentRequest, hence the Any).
body: Any = {"type": "fria", "jurisdiction": "eu/de"}
try:
    client.compliance.assessments.create(body=body)
except ValidationFailedError as err:
    print(f"status {err.status} {err.code}")
    for detail in err.details:
        print(f"field {detail.field}: {detail.issue}")
    # Quote the correlation id in a support request: it finds the request in the server's logs.
    print(f"correlation {err.correlation_id}")
except SvcError as err:
    print(f"unexpected {err.status} {err.code}")
