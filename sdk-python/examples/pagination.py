"""Pagination: ``auto_paging_iter()`` follows the cursors, so the loop sees every obligation, one
page at a time."""

from __future__ import annotations

from env import api_key, base_url

from svc_sdk import Client

client = Client(api_key=api_key, base_url=base_url)
client.frameworks.activate("eu-ai-act")

count = 0
for obligation in client.compliance.obligations.list(limit=50).auto_paging_iter():
    if count < 3:
        print(f"obligation {obligation['id']}")
    count += 1
print(f"total {count}")
