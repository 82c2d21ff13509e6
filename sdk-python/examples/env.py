"""Shared by the examples: where the API is and which key to use."""

from __future__ import annotations

import os
import sys

base_url = os.environ.get("SVC_URL", "http://127.0.0.1:8080")
api_key = os.environ.get("SVC_API_KEY", "")
if not api_key:
    print("Set SVC_API_KEY (and SVC_URL when the API is not on http://127.0.0.1:8080).", file=sys.stderr)
    sys.exit(1)
