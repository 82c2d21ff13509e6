"""The API's typed shapes (TypedDicts and aliases), generated from the OpenAPI document:
``from svc_sdk.types import Assessment, CreateAssessmentRequest``."""

from ._generated.types import *  # noqa: F401,F403
from ._generated.types import __all__ as __all__  # noqa: F401
