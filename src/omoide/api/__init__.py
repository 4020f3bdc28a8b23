"""omoide's HTTP service: REST API, chat over server-sent events, API keys."""

from omoide.api.app import app_from_environment, create_app

__all__ = ["app_from_environment", "create_app"]
