"""The asset factory: EmbodiedGen output in, sim-ready assets out.

``standins`` (seeded raw props) -> ``embodiedgen`` (safe reader) + ``spec`` (spec table) ->
``importer`` (Z-up, real size) -> ``collision`` (hull / CoACD) -> ``physics`` (mass properties) ->
``build`` (``asset.usda`` via ``housebench.usd.asset``, ``body.xml`` via ``mjcf``, ``meta.json``,
annotation via ``annotate``); ``batch`` runs a step over many assets; ``droptest`` checks the result.
"""
