"""Chat centroids, one JSON file per embedder (:mod:`omoide.embed.centring`), computed by
``python -m benchmarks.centroid``."""
