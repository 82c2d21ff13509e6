"""Hand-written runtime of the SDK: transport, retries, errors, pages. The typed layer in
``svc_sdk._generated`` is written by ``scripts/sdk/python.mjs`` and calls into this package."""
