"""A policy served over a websocket: the wire (msgpack messages), the server, the client policy."""
