"""A viewer's data as a whole: export everything kept about them, or forget all of it.

:class:`~omoide.privacy.viewer_data.ViewerData` is the one use case every surface (HTTP
API, CLI, web page) calls; :mod:`omoide.privacy.redaction` is the rule that takes a
forgotten viewer's words out of what other memories keep.
"""
