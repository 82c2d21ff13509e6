"""Quick start: create an assessment and list the framework dictionaries.

    SVC_URL=http://127.0.0.1:8080 SVC_API_KEY=svc_test_... python3 examples/quick_start.py
"""

from __future__ import annotations

from env import api_key, base_url

from svc_sdk import Client

client = Client(api_key=api_key, base_url=base_url)

assessment = client.compliance.assessments.create(
    body={"type": "fria", "systemId": "sys_credit_scoring_v2", "jurisdiction": "eu/de"},
)
print(f"created {assessment['id']} ({assessment['status']})")

frameworks = client.frameworks.list()
for framework in frameworks.data:
    print(f"framework {framework['id']}")
