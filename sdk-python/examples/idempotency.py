"""Idempotency: a retried POST with the same key (after a timeout, a crash, a redeploy) returns
the first result instead of creating a second assessment."""

from __future__ import annotations

from env import api_key, base_url

from svc_sdk import Client, new_idempotency_key
from svc_sdk.types import CreateAssessmentRequest

client = Client(api_key=api_key, base_url=base_url)
idempotency_key = new_idempotency_key()
body: CreateAssessmentRequest = {"type": "fria", "systemId": "sys_credit_scoring_v2", "jurisdiction": "eu/de"}

first = client.compliance.assessments.create(body=body, idempotency_key=idempotency_key)
retry = client.compliance.assessments.create(body=body, idempotency_key=idempotency_key)
print(f"first {first['id']}")
print(f"retry {retry['id']}")
print("same assessment" if first["id"] == retry["id"] else "DIFFERENT assessments")
